// People as the HR pages show them: a name linking to the employee's record
// page (the id alone for a viewer who may not read people).
import { Link } from '../../ui.js';

export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string | null;
  department: string | null;
}

export const PERSON_FIELDS = 'id firstName lastName email jobTitle department';

export const fullName = (person: Pick<Person, 'firstName' | 'lastName'>) =>
  `${person.firstName} ${person.lastName}`.trim();

/** The employee's name, linking to their record page; their id when the API did not give them. */
export function PersonLink({
  person,
  id,
}: {
  person: Pick<Person, 'firstName' | 'lastName'> | null | undefined;
  id: string;
}) {
  return <Link href={`/hr/employees/${id}`}>{person ? fullName(person) : id}</Link>;
}
