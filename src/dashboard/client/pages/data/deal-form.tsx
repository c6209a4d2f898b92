// Creating and editing a deal: its stage moves through updateDeal (the API
// refuses changing a closed deal's stage, 409, shown beside Stage).
import { useState } from 'preact/hooks';
import { ApiError, graphql } from '../../api.js';
import { navigate, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import { ErrorMessage, Field, Link, Loaded, PageHeader, Select, useQuery, useSubmit } from '../../ui.js';
import { contactName } from './contacts.js';
import { DEAL_FIELDS, OPEN_STAGES, STAGES, type Deal } from './deals.js';
import { formInput } from './form-input.js';
import { fromMinorUnits, toMinorUnits } from './money.js';

const FIELDS = ['title', 'amount', 'currency', 'stage', 'contactId', 'expectedCloseDate'] as const;
const CREATE = `mutation CreateDeal($input: CreateDealInput!) { createDeal(input: $input) { id } }`;
const UPDATE = `mutation UpdateDeal($id: ID!, $input: UpdateDealInput!) { updateDeal(id: $id, input: $input) { id } }`;
const CONTACTS = `query DealContacts { contacts(limit: 100, sort: lastName) { data { id firstName lastName email } } }`;

export function NewDealPage(_: PageProps) {
  return (
    <>
      <PageHeader title="New deal" />
      <DealForm />
    </>
  );
}

export function EditDealPage({ params }: PageProps) {
  const result = useQuery<{ deal: Deal }>(`query Deal($id: ID!) { deal(id: $id) { ${DEAL_FIELDS} } }`, {
    id: params.id,
  });
  return (
    <Loaded query={result}>
      {({ deal }) => (
        <>
          <PageHeader title={`Edit ${deal.title}`} />
          <DealForm deal={deal} />
        </>
      )}
    </Loaded>
  );
}

type ContactOption = { id: string; firstName: string | null; lastName: string | null; email: string };

function DealForm({ deal }: { deal?: Deal }) {
  const { query } = useLocation();
  const contacts = useQuery<{ contacts: { data: ContactOption[] } }>(CONTACTS);
  const [currency, setCurrency] = useState(deal?.currency ?? 'EUR');
  // Selects are controlled (a <select> has no default value of its own to keep).
  const [stage, setStage] = useState(deal?.stage ?? 'lead');
  const [contactId, setContactId] = useState(deal?.contactId ?? query.get('contactId') ?? '');
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const input: Record<string, unknown> = formInput(form, FIELDS, { clearEmpty: !!deal });
    if (typeof input.amount === 'string') {
      const amount = toMinorUnits(input.amount, (input.currency as string) ?? currency);
      if (amount === undefined) throw new ApiError('must be a number, e.g. 1250.00', 'VALIDATION_ERROR', 'amount');
      input.amount = amount;
    }
    // Required or not clearable in the API: an emptied one is left as it was.
    for (const name of ['title', 'currency', 'stage', 'amount']) if (input[name] === null) delete input[name];
    // An unchanged stage is not sent: a closed deal's other fields stay editable.
    if (deal && input.stage === deal.stage) delete input.stage;
    if (deal) {
      await graphql(UPDATE, { id: deal.id, input });
      navigate(`/deals/${deal.id}`);
    } else {
      const { createDeal } = await graphql<{ createDeal: { id: string } }>(CREATE, { input });
      navigate(`/deals/${createDeal.id}`);
    }
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit(event.currentTarget as HTMLFormElement);
  };
  const contactOptions = [
    { value: '', label: 'No contact' },
    ...(contacts.data?.contacts.data ?? []).map((c) => ({ value: c.id, label: contactName(c) })),
  ];
  // The deal's own contact is an option even when it is not among the first hundred.
  if (deal?.contact && !contactOptions.some((option) => option.value === deal.contact!.id)) {
    contactOptions.push({ value: deal.contact.id, label: contactName(deal.contact) });
  }
  return (
    <form class="stacked panel" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError([...FIELDS])} />
      <Field label="Title" name="title" required defaultValue={deal?.title} error={fieldError('title')} />
      <Field
        label="Amount"
        name="amount"
        inputMode="decimal"
        hint="In the currency's units, e.g. 1250.00"
        defaultValue={deal ? fromMinorUnits(deal.amount, deal.currency) : ''}
        error={fieldError('amount')}
      />
      <Field
        label="Currency"
        name="currency"
        required
        maxLength={3}
        hint="ISO 4217 code, e.g. EUR, USD"
        defaultValue={currency}
        onInput={(event) => setCurrency(event.currentTarget.value.toUpperCase())}
        error={fieldError('currency')}
      />
      <Select
        label="Stage"
        name="stage"
        options={deal ? STAGES : OPEN_STAGES}
        value={stage}
        onChange={(event) => setStage(event.currentTarget.value)}
        error={fieldError('stage')}
      />
      <Select
        label="Contact"
        name="contactId"
        options={contactOptions}
        value={contactId}
        onChange={(event) => setContactId(event.currentTarget.value)}
        error={fieldError('contactId')}
      />
      <Field
        label="Expected close date"
        name="expectedCloseDate"
        type="date"
        defaultValue={deal?.expectedCloseDate ?? ''}
        error={fieldError('expectedCloseDate')}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : deal ? 'Save deal' : 'Create deal'}
        </button>
        <Link class="button secondary" href={deal ? `/deals/${deal.id}` : '/deals'}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
