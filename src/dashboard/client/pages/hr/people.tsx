// People as the HR pages show them: a name linking to the employee's record
// page, and, where the API gives only an employeeId (a payslip), the
// employees read by id in a few batched requests.
import { Link, type Query } from '../../ui.js';
import { batchKey, useBatched, type BatchedField } from './batch.js';

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

const EMPLOYEE: BatchedField = { field: 'employee', args: { id: 'ID!' }, selection: PERSON_FIELDS };

/** The employees of these ids, by id. */
export function usePeople(ids: string[]): Query<Map<string, Person>> {
  const result = useBatched<Person>(
    EMPLOYEE,
    ids.map((id) => ({ id })),
  );
  const data = result.data && new Map(ids.map((id) => [id, result.data!.get(batchKey({ id }))!] as const));
  return { ...result, data };
}
