-- Declared resources (src/graphql/kit/declared-table.ts)

-- TaxRate: the table is missing
CREATE TABLE "TaxRate" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "name" TEXT NOT NULL,
    "description" TEXT,
    "percentage" NUMERIC(7,4) NOT NULL,
    "inclusive" BOOLEAN NOT NULL,
    "active" BOOLEAN NOT NULL,
    CONSTRAINT "TaxRate_pkey" PRIMARY KEY ("id")
);

-- Invoice: no columns "discountTotal", "taxTotal", "taxes". Existing invoices had neither
-- discounts nor taxes: 0, 0 and []. The defaults stay for rows written outside the service
-- (the service always writes all three).
ALTER TABLE "Invoice" ADD COLUMN "discountTotal" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Invoice" ADD COLUMN "taxTotal" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Invoice" ADD COLUMN "taxes" JSONB NOT NULL DEFAULT '[]'::jsonb;

-- Invoice lines gain their discount and taxes (src/graphql/finance/invoice/amounts.ts):
-- no discount, no tax rate. A line's amount stays what it was (nothing was taken off).
UPDATE "Invoice" SET lines = (
  SELECT jsonb_agg('{"discountPercent": null, "discountAmount": null, "discount": 0, "taxRateIds": [], "taxes": []}'::jsonb || line ORDER BY n)
  FROM jsonb_array_elements(lines) WITH ORDINALITY AS l(line, n))
WHERE jsonb_array_length(lines) > 0;

-- Which tax rates each invoice's lines name, written with the invoice
-- (src/graphql/finance/tax-rate/lines.ts): the foreign key to "TaxRate" refuses the
-- delete of a rate in use (409: deactivate it instead) at the cost of an index probe,
-- and locks the rate against a concurrent delete. The key to "Invoice" is checked at
-- commit: the create writes these rows before the invoice's own.
CREATE TABLE "InvoiceTaxRate" (
    "organizationId" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "taxRateId" TEXT NOT NULL,
    CONSTRAINT "InvoiceTaxRate_pkey" PRIMARY KEY ("taxRateId", "invoiceId")
);
CREATE INDEX "InvoiceTaxRate_invoiceId_idx" ON "InvoiceTaxRate"("invoiceId");
ALTER TABLE "InvoiceTaxRate" ADD CONSTRAINT "InvoiceTaxRate_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;
ALTER TABLE "InvoiceTaxRate" ADD CONSTRAINT "InvoiceTaxRate_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
-- NO ACTION (checked at the statement's end), not RESTRICT: an organization's delete
-- cascades to its invoices and rates alike in one statement.
ALTER TABLE "InvoiceTaxRate" ADD CONSTRAINT "InvoiceTaxRate_taxRateId_fkey" FOREIGN KEY ("taxRateId") REFERENCES "TaxRate"("id") ON DELETE NO ACTION;

-- TaxRate: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "TaxRate_organizationId_createdAt_id_idx" ON "TaxRate"("organizationId", "createdAt", "id");

-- TaxRate: no foreign key from "organizationId" to "Organization"
ALTER TABLE "TaxRate" ADD CONSTRAINT "TaxRate_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- TaxRate: no count triggers (list totals)
SELECT kit_count_rows('TaxRate');

-- TaxRate: no trigram index on ("organizationId", "TaxRate"."name") for its text search
CREATE INDEX "TaxRate_search_idx" ON "TaxRate" USING gin ("organizationId", ("TaxRate"."name") gin_trgm_ops);
