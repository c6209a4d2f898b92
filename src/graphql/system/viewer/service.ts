// The caller as a Viewer: the principal's organization, its user as stored now
// (none for an operator's key, or once that user is deleted) and its scopes.
import type { Principal } from '../../../auth/principal.js';
import { notFound } from '../../../errors.js';
import { toPublic } from '../../kit/fields.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { SETTINGS } from '../organization/service.js';
import { User } from '../user/type.js';
import type { Viewer } from './type.js';

export class ViewerService {
  constructor(private readonly db: ServiceDependencies) {}

  async of(principal: Principal): Promise<Viewer> {
    const { organizationId, userId } = principal;
    const [organization, user] = await Promise.all([
      this.db.prisma.organization.findUnique({
        where: { id: organizationId },
        select: SETTINGS,
      }),
      userId ? this.db.prisma.user.findFirst({ where: { id: userId, organizationId } }) : null,
    ]);
    if (!organization) throw notFound('Organization');
    return {
      user: user ? toPublic(User, user) : null,
      organization,
      scopes: [...principal.scopes].sort(),
      credentialType: principal.credential.type,
    };
  }
}
