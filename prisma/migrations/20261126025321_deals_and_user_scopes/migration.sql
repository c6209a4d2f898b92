-- AlterTable
ALTER TABLE "User" ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The admin role implies every scope: the scopes column of an admin says so, as for new admins.
UPDATE "User" SET "scopes" = ARRAY['admin'] WHERE "role" = 'admin';

-- CreateTable
CREATE TABLE "Deal" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "amount" BIGINT NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'lead',
    "contactId" TEXT,
    "expectedCloseDate" DATE,
    "closedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Deal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Deal_organizationId_createdAt_id_idx" ON "Deal"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Deal_organizationId_stage_createdAt_id_idx" ON "Deal"("organizationId", "stage", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Deal_contactId_idx" ON "Deal"("contactId");

-- AddForeignKey
ALTER TABLE "Deal" ADD CONSTRAINT "Deal_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Deal" ADD CONSTRAINT "Deal_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE SET NULL ON UPDATE CASCADE;
