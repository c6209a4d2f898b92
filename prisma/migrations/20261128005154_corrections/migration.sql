-- Declared resources (src/graphql/kit/declared-table.ts)

-- CreditNote: the table is missing
CREATE TABLE "CreditNote" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "number" TEXT,
    "invoiceId" TEXT NOT NULL,
    "contactId" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "lines" JSONB,
    "amount" BIGINT,
    "subtotal" BIGINT NOT NULL,
    "discountTotal" BIGINT NOT NULL,
    "taxTotal" BIGINT NOT NULL,
    "taxes" JSONB NOT NULL DEFAULT '[]'::jsonb,
    "total" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "issuedAt" TIMESTAMPTZ(3),
    CONSTRAINT "CreditNote_pkey" PRIMARY KEY ("id")
);

-- Invoice: no column "amountCredited"
-- By hand: 0 for the invoices there are (no credit note existed), and for each new one (as "amountPaid").
ALTER TABLE "Invoice" ADD COLUMN "amountCredited" BIGINT NOT NULL DEFAULT 0;

-- Payment: no column "refunds"
ALTER TABLE "Payment" ADD COLUMN "refunds" JSONB NOT NULL DEFAULT '[]'::jsonb;

-- CreditNote: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "CreditNote_organizationId_createdAt_id_idx" ON "CreditNote"("organizationId", "createdAt", "id");

-- CreditNote: no unique index on ("organizationId", "number")
CREATE UNIQUE INDEX "CreditNote_organizationId_number_key" ON "CreditNote"("organizationId", "number");

-- CreditNote: no index on "invoiceId" (a reference)
CREATE INDEX "CreditNote_invoiceId_idx" ON "CreditNote"("invoiceId");

-- CreditNote: no index on "contactId" (a reference)
CREATE INDEX "CreditNote_contactId_idx" ON "CreditNote"("contactId");

-- CreditNote: no foreign key from "organizationId" to "Organization"
ALTER TABLE "CreditNote" ADD CONSTRAINT "CreditNote_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- CreditNote: no foreign key from "invoiceId" to "Invoice"
ALTER TABLE "CreditNote" ADD CONSTRAINT "CreditNote_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE RESTRICT;

-- CreditNote: no foreign key from "contactId" to "Contact"
ALTER TABLE "CreditNote" ADD CONSTRAINT "CreditNote_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE RESTRICT;

-- CreditNote: no count triggers (list totals)
SELECT kit_count_rows('CreditNote');

-- CreditNote: no trigram index on ("organizationId", "CreditNote"."reason" || ' ' || coalesce("CreditNote"."number", '')) for its text search
CREATE INDEX "CreditNote_search_idx" ON "CreditNote" USING gin ("organizationId", ("CreditNote"."reason" || ' ' || coalesce("CreditNote"."number", '')) gin_trgm_ops);

-- By hand: the credit notes' number counter, one row per organization (src/graphql/kit/numbering.ts), as "InvoiceCounter".
CREATE TABLE "CreditNoteCounter" (
    "organizationId" TEXT NOT NULL,
    "last" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "CreditNoteCounter_pkey" PRIMARY KEY ("organizationId")
);
ALTER TABLE "CreditNoteCounter" ADD CONSTRAINT "CreditNoteCounter_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

