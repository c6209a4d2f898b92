// What the webhook pages share: the fields they read and the secret dialog's shape.
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  disabledAt: string | null;
  createdAt: string;
}

export const WEBHOOK_FIELDS = 'id url events description status disabledReason disabledAt createdAt';

export interface ShownSecret {
  title: string;
  values: { label: string; value: string }[];
}

export const ROTATE_WEBHOOK_SECRET = `mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { id secret } }`;
