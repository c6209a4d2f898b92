// Response shapes for the OpenAPI document (requests reuse the services' schemas).
import { z } from 'zod';

export const paginationSchema = z
  .object({
    page: z.int().min(1),
    limit: z.int().min(1).max(100),
    total: z.int().min(0),
    pages: z.int().min(0),
  })
  .meta({ id: 'Pagination' });

export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z.object({ data: z.array(item), pagination: paginationSchema }).meta({ id });
}

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum([
        'VALIDATION_ERROR',
        'UNAUTHORIZED',
        'FORBIDDEN',
        'NOT_FOUND',
        'METHOD_NOT_ALLOWED',
        'CONFLICT',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'RATE_LIMIT_EXCEEDED',
        'INTERNAL_ERROR',
        'SERVICE_UNAVAILABLE',
      ]),
      message: z.string(),
      field: z.string().optional().describe('Present for validation errors: the offending field.'),
      retryAfter: z.int().optional().describe('Present for rate limiting: seconds to wait.'),
    }),
  })
  .meta({ id: 'Error' });

const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp');

export const contactSchema = z
  .object({
    id: z.string().describe('Service-assigned identifier'),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.email(),
    company: z.string().nullable(),
    phone: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Contact' });

export const eventSchema = z
  .object({
    id: z.string().describe('Unique per event; deduplicate on it'),
    type: z.string(),
    created: z.int().describe('Unix time in seconds'),
    data: z.object({
      object: z.record(z.string(), z.unknown()),
      previousAttributes: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Event' });
