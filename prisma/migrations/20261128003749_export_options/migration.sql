-- The tables Prisma keeps (prisma/schema.prisma)
-- AlterTable
ALTER TABLE "Export" ADD COLUMN     "amounts" TEXT NOT NULL DEFAULT 'minor',
ADD COLUMN     "bom" BOOLEAN NOT NULL DEFAULT false;
