// The error envelope's schema for the OpenAPI document (resources' shapes come from the kit).
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      field: z.string().optional().describe('Present for validation errors: the offending field.'),
      retryAfter: z.int().optional().describe('Present with 429 and 503: seconds to wait before retrying.'),
    }),
  })
  .meta({ id: 'Error' });
