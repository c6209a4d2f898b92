// Who is calling: the result of resolving a Bearer credential.
export interface Principal {
  organizationId: string;
  scopes: ReadonlySet<string>;
  credential: { type: 'api_key'; id: string } | { type: 'access_token'; id: string };
  userId?: string;
}
