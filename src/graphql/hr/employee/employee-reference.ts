// An employee id given where no declared reference can check it (the
// declarations would need each other first: a department's manager, a user's
// employee): 400 naming the field unless it is an employee of the organization,
// locked (KEY SHARE) until commit as a declared reference is.
import { invalidField } from '../../../errors.js';
import { isWellFormedIdWith } from '../../../ids.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { EMPLOYEE_ID_PREFIX } from './id-prefix.js';

export async function requireEmployeeReference(rules: RuleContext, field: string, id: unknown): Promise<void> {
  if (typeof id !== 'string') return;
  const found =
    isWellFormedIdWith(EMPLOYEE_ID_PREFIX, id) &&
    (
      await rules.query(`select 1 from "Employee" where id = $1 and "organizationId" = $2 for key share`, [
        id,
        rules.organizationId,
      ])
    ).length > 0;
  if (!found) throw invalidField(field, 'no employee with this id in the organization');
}
