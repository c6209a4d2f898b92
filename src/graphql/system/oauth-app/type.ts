// An OAuth app as every transport shows it (never its secret), and a new or
// re-keyed app as its creation or secret rotation answers it once, with the secret.
import { ObjectType } from 'type-graphql';
import { FIELD_KINDS, oneOf, Public } from '../../kit/fields.js';

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

@ObjectType({
  simpleResolvers: true,
  description: 'An OAuth 2.0 client that asks users of the organization for access.',
})
export class OauthApp {
  @Public.id()
  id!: string;

  @Public.text({ description: 'Shown to users on the consent page.' })
  name!: string;

  @Public.text({ nullable: true, description: 'Shown to users on the consent page.' })
  description!: string | null;

  @Public.id({ description: 'The OAuth client_id (`bpc_…`).' })
  clientId!: string;

  @Public.of(oneOf(CLIENT_TYPES), {
    description: '`confidential` (has a client secret) or `public` (no secret; PKCE is required).',
  })
  clientType!: string;

  @Public.boolean({
    description:
      'Every authorization request must carry a PKCE challenge (S256). True for new apps and always for public ones.',
  })
  requirePkce!: boolean;

  @Public.of(FIELD_KINDS.textList, { description: 'Allowed redirect URIs, matched exactly.' })
  redirectUris!: string[];

  @Public.scopes({ description: 'The most a user can grant the app.' })
  scopes!: string[];

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}

@ObjectType({ simpleResolvers: true, description: 'An OAuth app with its client secret: store it now.' })
export class NewOauthApp extends OauthApp {
  @Public.text({
    nullable: true,
    description: 'The client secret (`bpcs_…`). Shown only now; null for public clients.',
  })
  clientSecret!: string | null;
}
