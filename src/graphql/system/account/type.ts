// A signed-in session as its own user sees it on the account page: GraphQL only.
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTime } from '../../kit/date-time.js';

@ObjectType({ simpleResolvers: true, description: 'A live sign-in session of the signed-in user.' })
export class Session {
  @Field(() => ID)
  id!: string;

  @Field(() => DateTime, { description: 'When it signed in.' })
  createdAt!: Date;

  @Field(() => DateTime, { description: 'Its last request (recorded to the minute).' })
  lastSeenAt!: Date;

  @Field(() => DateTime, {
    description: 'When it ends unless used before: SESSION_IDLE_TIMEOUT_S after its last request, or its absolute end.',
  })
  endsAt!: Date;

  @Field(() => DateTime, { description: 'Its absolute end, however active it is.' })
  expiresAt!: Date;

  @Field(() => String, { nullable: true, description: "The browser's User-Agent when it signed in." })
  userAgent!: string | null;

  @Field(() => Boolean, { description: 'Whether this is the session asking.' })
  current!: boolean;
}
