// The one way an event is written into the "Event" outbox: every writer (the
// kit's statements, emitEvent, the export request, the export and import jobs,
// the webhook test event, sign-in through emitEvent) builds its insert here, so
// the columns and the shape of `data` ({object, previousAttributes?}) are said
// once. Each writer gives SQL expressions in its own statement's terms (a
// parameter, a column of a CTE), which keeps the insert inside the statement
// that makes the change. Imports nothing, so the kit may use it.

/** One event's columns as SQL expressions; createdAt defaults to the transaction's time. */
export interface EventValues {
  id: string;
  organizationId: string;
  type: string;
  /** The subject in its public shape (jsonb). */
  object: string;
  /** On a change: the changed fields' previous values (jsonb). */
  previousAttributes?: string;
  actorType: string;
  /** Text, or null for the system. */
  actorId: string;
}

/** `select <the event's columns> <rest>`: one event row, `rest` its from/where/order (none: one row). */
export function eventRow(values: EventValues, rest = ''): string {
  const { id, organizationId, type, object, previousAttributes, actorType, actorId } = values;
  const data = previousAttributes
    ? `jsonb_build_object('object', ${object}, 'previousAttributes', ${previousAttributes})`
    : `jsonb_build_object('object', ${object})`;
  const row = `select ${id}, ${organizationId}, ${type}, ${data}, ${actorType}, ${actorId}::text`;
  return rest ? `${row} ${rest}` : row;
}

/** The insert of these event rows (eventRow's), in their order. */
export function insertEvents(rows: readonly string[]): string {
  return `insert into "Event" (id, "organizationId", type, data, "actorType", "actorId") ${rows.join(' union all ')}`;
}
