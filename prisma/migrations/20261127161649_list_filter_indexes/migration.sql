-- A record's history (GET /v1/events?objectId=…): the events whose data.object.id is the record's,
-- oldest first, read from this index rather than by scanning the organization's events.
-- The expression is exactly the one src/graphql/system/event/service.ts (eventConditions) filters on.
CREATE INDEX "Event_organizationId_objectId_createdAt_id_idx" ON "Event" ("organizationId", (("data" -> 'object') ->> 'id'), "createdAt", "id");

-- Who is clocked in now (GET /v1/hr/attendance?status=open): the open records alone, a few per organization.
CREATE INDEX "Attendance_open_idx" ON "Attendance" ("organizationId", "createdAt", "id") WHERE "status" = 'open';
