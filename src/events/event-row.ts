// The "Event" table as its writers insert into it (the kit's statements,
// emitEvent, the export service and job). Imports nothing, so the kit may use it.

/** The columns every event insert sets; createdAt defaults to the transaction's time. */
export const EVENT_INSERT_COLUMNS = 'id, "organizationId", type, data, "actorType", "actorId"';
