// An API key as lists show it (never its key or secret), and a new key as its
// creation or rotation answers it once, with the key and the secret.
import { ObjectType } from 'type-graphql';
import { Public } from '../../kit/fields.js';

@ObjectType({ simpleResolvers: true, description: 'An API key; the key itself is shown only when created.' })
export class ApiKey {
  @Public.id()
  id!: string;

  @Public.text()
  name!: string;

  @Public.text({ description: 'The clear start of the key, to recognise it.' })
  prefix!: string;

  @Public.scopes({
    description: "The scopes the key was given; it uses them within its creator's current rights.",
  })
  scopes!: string[];

  @Public.id({
    nullable: true,
    description:
      'The user the key acts for, whose current rights bound its scopes; null for a key the operator made (or one whose creator was deleted, which is revoked).',
  })
  createdByUserId!: string | null;

  @Public.timestamp({ nullable: true })
  expiresAt!: string | null;

  @Public.timestamp({ nullable: true, description: 'Recorded at minute resolution.' })
  lastUsedAt!: string | null;

  @Public.timestamp({ nullable: true })
  revokedAt!: string | null;

  @Public.id({
    nullable: true,
    description:
      'The key a rotation replaced this one with (this one was revoked then); null for a key never rotated, and for one rotated before this was recorded.',
  })
  replacedById!: string | null;

  @Public.timestamp()
  createdAt!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A new API key with its key and secret: store them now.' })
export class NewApiKey {
  @Public.id()
  id!: string;

  @Public.text()
  name!: string;

  @Public.text()
  prefix!: string;

  @Public.scopes()
  scopes!: string[];

  @Public.timestamp({ nullable: true })
  expiresAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.text({ description: 'The Bearer key (`bpk_…`). Shown only now.' })
  key!: string;

  @Public.text({ description: 'The secret (`bps_…`) for the OAuth client_credentials grant. Shown only now.' })
  secret!: string;

  @Public.id({ nullable: true, description: 'On rotation: the key this one replaces, now revoked.' })
  replaces!: string | null;
}
