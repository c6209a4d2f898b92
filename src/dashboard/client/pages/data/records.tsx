// Read-only lists of the HR and finance records: columns declared per
// resource, the rest is the shared list page (list.tsx).
import { formatDateTime, formatMoney } from '../../ui.js';
import { ListPage, type ListSpec } from './list.js';

type Person = { firstName: string; lastName: string } | null;
const person = (employee: Person) => (employee ? `${employee.firstName} ${employee.lastName}` : '—');
const money = (amount: number | null, currency: string | null) =>
  amount === null || !currency ? '—' : formatMoney(amount, currency);
const EMPLOYEE = 'employee { firstName lastName }';

interface Employee {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string | null;
  department: string | null;
  status: string;
  startDate: string | null;
}

const employees: ListSpec<Employee> = {
  title: 'Employees',
  field: 'employees',
  sortType: 'EmployeeSort',
  selection: 'id firstName lastName email jobTitle department status startDate',
  search: true,
  filter: { name: 'status', type: 'EmployeeStatus', label: 'Status', options: ['active', 'terminated'] },
  columns: [
    { label: 'Name', sort: 'lastName', render: (e) => person(e) },
    { label: 'Email', sort: 'email', render: (e) => e.email },
    { label: 'Job title', render: (e) => e.jobTitle ?? '—' },
    { label: 'Department', render: (e) => e.department ?? '—' },
    { label: 'Status', render: (e) => e.status },
    { label: 'Start date', sort: 'startDate', render: (e) => e.startDate ?? '—' },
  ],
};

interface Department {
  id: string;
  name: string;
  code: string;
  parent: { name: string } | null;
  manager: Person;
}

const departments: ListSpec<Department> = {
  title: 'Departments',
  field: 'departments',
  sortType: 'DepartmentSort',
  selection: `id name code parent { name } manager { firstName lastName }`,
  search: true,
  columns: [
    { label: 'Name', sort: 'name', render: (d) => d.name },
    { label: 'Code', sort: 'code', render: (d) => d.code },
    { label: 'Part of', render: (d) => d.parent?.name ?? '—' },
    { label: 'Manager', render: (d) => person(d.manager) },
  ],
};

interface Attendance {
  id: string;
  clockIn: string;
  clockOut: string | null;
  status: string;
  minutesWorked: number | null;
  employee: Person;
}

const attendance: ListSpec<Attendance> = {
  title: 'Attendance',
  field: 'attendance',
  sortType: 'AttendanceSort',
  selection: `id clockIn clockOut status minutesWorked ${EMPLOYEE}`,
  columns: [
    { label: 'Employee', render: (a) => person(a.employee) },
    { label: 'Clock in', sort: 'clockIn', render: (a) => formatDateTime(a.clockIn) },
    { label: 'Clock out', sort: 'clockOut', render: (a) => formatDateTime(a.clockOut) },
    { label: 'Status', render: (a) => a.status },
    { label: 'Minutes', number: true, render: (a) => a.minutesWorked ?? '—' },
  ],
};

interface LeaveRequest {
  id: string;
  type: string;
  from: string;
  to: string;
  status: string;
  employee: Person;
}

const leaveRequests: ListSpec<LeaveRequest> = {
  title: 'Leave requests',
  field: 'leaveRequests',
  sortType: 'LeaveRequestSort',
  selection: `id type from to status ${EMPLOYEE}`,
  columns: [
    { label: 'Employee', render: (l) => person(l.employee) },
    { label: 'Type', render: (l) => l.type },
    { label: 'From', sort: 'from', render: (l) => l.from },
    { label: 'To', sort: 'to', render: (l) => l.to },
    { label: 'Status', sort: 'status', render: (l) => l.status },
  ],
};

interface PayrollRun {
  id: string;
  periodStart: string;
  periodEnd: string;
  payDate: string;
  status: string;
  items: unknown[];
  processedAt: string | null;
}

const payrollRuns: ListSpec<PayrollRun> = {
  title: 'Payroll runs',
  field: 'payrollRuns',
  sortType: 'PayrollRunSort',
  selection: 'id periodStart periodEnd payDate status items { employeeId } processedAt',
  columns: [
    { label: 'Period start', sort: 'periodStart', render: (p) => p.periodStart },
    { label: 'Period end', sort: 'periodEnd', render: (p) => p.periodEnd },
    { label: 'Pay date', sort: 'payDate', render: (p) => p.payDate },
    { label: 'Status', render: (p) => p.status },
    { label: 'Items', number: true, render: (p) => p.items.length },
    { label: 'Processed', render: (p) => formatDateTime(p.processedAt) },
  ],
};

interface Invoice {
  id: string;
  number: string;
  currency: string;
  issueDate: string;
  dueDate: string;
  total: number;
  amountDue: number;
  status: string;
  contact: { email: string } | null;
}

const invoices: ListSpec<Invoice> = {
  title: 'Invoices',
  field: 'invoices',
  sortType: 'InvoiceSort',
  selection: 'id number currency issueDate dueDate total amountDue status contact { email }',
  search: true,
  columns: [
    { label: 'Number', sort: 'number', render: (i) => i.number },
    { label: 'Contact', render: (i) => i.contact?.email ?? '—' },
    { label: 'Issued', sort: 'issueDate', render: (i) => i.issueDate },
    { label: 'Due', sort: 'dueDate', render: (i) => i.dueDate },
    { label: 'Total', number: true, render: (i) => money(i.total, i.currency) },
    { label: 'Amount due', number: true, render: (i) => money(i.amountDue, i.currency) },
    { label: 'Status', render: (i) => i.status },
  ],
};

interface Payment {
  id: string;
  amount: number;
  currency: string;
  method: string;
  receivedAt: string;
  reference: string | null;
  invoice: { number: string } | null;
}

const payments: ListSpec<Payment> = {
  title: 'Payments',
  field: 'payments',
  sortType: 'PaymentSort',
  selection: 'id amount currency method receivedAt reference invoice { number }',
  columns: [
    { label: 'Received', sort: 'receivedAt', render: (p) => formatDateTime(p.receivedAt) },
    { label: 'Amount', sort: 'amount', number: true, render: (p) => money(p.amount, p.currency) },
    { label: 'Method', render: (p) => p.method },
    { label: 'Invoice', render: (p) => p.invoice?.number ?? '—' },
    { label: 'Reference', render: (p) => p.reference ?? '—' },
  ],
};

interface Expense {
  id: string;
  amount: number;
  currency: string;
  category: string;
  incurredOn: string;
  status: string;
  employee: Person;
}

const expenses: ListSpec<Expense> = {
  title: 'Expenses',
  field: 'expenses',
  sortType: 'ExpenseSort',
  selection: `id amount currency category incurredOn status ${EMPLOYEE}`,
  columns: [
    { label: 'Incurred on', sort: 'incurredOn', render: (e) => e.incurredOn },
    { label: 'Employee', render: (e) => person(e.employee) },
    { label: 'Category', render: (e) => e.category },
    { label: 'Amount', sort: 'amount', number: true, render: (e) => money(e.amount, e.currency) },
    { label: 'Status', render: (e) => e.status },
  ],
};

/** The read-only record lists: path, the scope they need, and the page. */
export const RECORD_LISTS = [
  { path: '/hr/employees', needs: 'hr:read', spec: employees },
  { path: '/hr/departments', needs: 'hr:read', spec: departments },
  { path: '/hr/attendance', needs: 'hr:read', spec: attendance },
  { path: '/hr/leave-requests', needs: 'hr:read', spec: leaveRequests },
  { path: '/hr/payroll-runs', needs: 'hr:payroll', spec: payrollRuns },
  { path: '/finance/invoices', needs: 'finance:read', spec: invoices },
  { path: '/finance/payments', needs: 'finance:read', spec: payments },
  { path: '/finance/expenses', needs: 'finance:read', spec: expenses },
].map(({ path, needs, spec }) => ({
  path,
  needs,
  label: spec.title,
  page: () => <ListPage spec={spec as ListSpec<{ id: string }>} />,
}));
