-- The tables Prisma keeps (prisma/schema.prisma)
-- CreateTable
CREATE TABLE "Import" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "key" TEXT,
    "dryRun" BOOLEAN NOT NULL DEFAULT false,
    "atomic" BOOLEAN NOT NULL DEFAULT false,
    "scopes" TEXT[],
    "callerScopes" TEXT[],
    "userId" TEXT,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "size" BIGINT NOT NULL DEFAULT 0,
    "rowsTotal" INTEGER,
    "rowsProcessed" INTEGER NOT NULL DEFAULT 0,
    "rowsCreated" INTEGER NOT NULL DEFAULT 0,
    "rowsUpdated" INTEGER NOT NULL DEFAULT 0,
    "rowsRefused" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "failureReason" TEXT,
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Import_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportChunk" (
    "importId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "ImportChunk_pkey" PRIMARY KEY ("importId","seq")
);

-- CreateIndex
CREATE INDEX "Import_organizationId_createdAt_id_idx" ON "Import"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Import_createdAt_idx" ON "Import"("createdAt");

-- AddForeignKey
ALTER TABLE "Import" ADD CONSTRAINT "Import_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportChunk" ADD CONSTRAINT "ImportChunk_importId_fkey" FOREIGN KEY ("importId") REFERENCES "Import"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- List totals (src/graphql/kit/list-query.ts).
SELECT kit_count_rows('Import');
