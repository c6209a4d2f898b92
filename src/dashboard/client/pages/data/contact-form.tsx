// Creating and editing a contact: the API checks everything, and its message
// appears beside the field it names (an invalid or taken email under Email).
import { graphql } from '../../api.js';
import { navigate } from '../../route.js';
import type { PageProps } from '../../section.js';
import { ErrorMessage, Field, Link, Loaded, PageHeader, useQuery, useSubmit } from '../../ui.js';
import { CONTACT_FIELDS, contactName, type Contact } from './contacts.js';
import { formInput, splitList } from './form-input.js';

const FIELDS = ['firstName', 'lastName', 'email', 'company', 'phone'] as const;

const CREATE = `mutation CreateContact($input: CreateContactInput!) { createContact(input: $input) { id } }`;
const UPDATE = `mutation UpdateContact($id: ID!, $input: UpdateContactInput!) { updateContact(id: $id, input: $input) { id } }`;

export function NewContactPage(_: PageProps) {
  return (
    <>
      <PageHeader title="New contact" />
      <ContactForm />
    </>
  );
}

export function EditContactPage({ params }: PageProps) {
  const result = useQuery<{ contact: Contact }>(`query Contact($id: ID!) { contact(id: $id) { ${CONTACT_FIELDS} } }`, {
    id: params.id,
  });
  return (
    <Loaded query={result}>
      {({ contact }) => (
        <>
          <PageHeader title={`Edit ${contactName(contact)}`} />
          <ContactForm contact={contact} />
        </>
      )}
    </Loaded>
  );
}

function ContactForm({ contact }: { contact?: Contact }) {
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const input: Record<string, unknown> = formInput(form, FIELDS, { clearEmpty: !!contact });
    input.tags = splitList(new FormData(form).get('tags') as string);
    if (contact) {
      await graphql(UPDATE, { id: contact.id, input });
      navigate(`/contacts/${contact.id}`);
    } else {
      const { createContact } = await graphql<{ createContact: { id: string } }>(CREATE, { input });
      navigate(`/contacts/${createContact.id}`);
    }
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit(event.currentTarget as HTMLFormElement);
  };
  return (
    <form class="stacked panel" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError([...FIELDS, 'tags'])} />
      <Field
        label="Email"
        name="email"
        type="email"
        autocomplete="off"
        required
        defaultValue={contact?.email}
        error={fieldError('email')}
      />
      <Field
        label="First name"
        name="firstName"
        defaultValue={contact?.firstName ?? ''}
        error={fieldError('firstName')}
      />
      <Field label="Last name" name="lastName" defaultValue={contact?.lastName ?? ''} error={fieldError('lastName')} />
      <Field label="Company" name="company" defaultValue={contact?.company ?? ''} error={fieldError('company')} />
      <Field label="Phone" name="phone" type="tel" defaultValue={contact?.phone ?? ''} error={fieldError('phone')} />
      <Field
        label="Tags"
        name="tags"
        hint="Separated by commas, e.g. customer, newsletter"
        defaultValue={contact?.tags.join(', ') ?? ''}
        error={fieldError('tags')}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : contact ? 'Save contact' : 'Create contact'}
        </button>
        <Link class="button secondary" href={contact ? `/contacts/${contact.id}` : '/contacts'}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
