// What the OAuth app pages share: the fields they read.
export interface OauthApp {
  id: string;
  name: string;
  description: string | null;
  clientId: string;
  clientType: 'confidential' | 'public';
  requirePkce: boolean;
  redirectUris: string[];
  scopes: string[];
  createdAt: string;
}

export const APP_FIELDS = 'id name description clientId clientType requirePkce redirectUris scopes createdAt';
