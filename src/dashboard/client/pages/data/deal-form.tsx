// Creating and editing a deal: its stage moves through updateDeal (the API
// refuses changing a closed deal's stage, 409, shown beside Stage); its contact
// is chosen with the searchable picker (any contact, told apart by email).
import { useState } from 'preact/hooks';
import { ApiError, graphql } from '../../api.js';
import { navigate, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import { CONTACTS, RecordPicker } from '../../picker.js';
import { ErrorMessage, Field, Link, Loaded, PageHeader, Select, useQuery, useSubmit } from '../../ui.js';
import { DEAL_FIELDS, OPEN_STAGES, STAGES, type Deal } from './deals.js';
import { formInput } from './form-input.js';
import { fromMinorUnits, toMinorUnits } from './money.js';

const FIELDS = ['title', 'amount', 'currency', 'stage', 'contactId', 'expectedCloseDate'] as const;
const CREATE = `mutation CreateDeal($input: CreateDealInput!) { createDeal(input: $input) { id } }`;
const UPDATE = `mutation UpdateDeal($id: ID!, $input: UpdateDealInput!) { updateDeal(id: $id, input: $input) { id } }`;

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

function DealForm({ deal }: { deal?: Deal }) {
  const { query } = useLocation();
  const [currency, setCurrency] = useState(deal?.currency ?? 'EUR');
  // Selects are controlled (a <select> has no default value of its own to keep).
  const [stage, setStage] = useState(deal?.stage ?? 'lead');
  const contactId = deal?.contactId ?? query.get('contactId') ?? '';
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
      <RecordPicker
        label="Contact"
        name="contactId"
        source={CONTACTS}
        value={contactId}
        hint="Type a name, email or company; the email tells two of the same name apart."
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
