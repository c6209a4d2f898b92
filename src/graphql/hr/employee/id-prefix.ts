// The employee id's prefix, in a module of its own: the employees declaration
// names it, and modules the declaration itself needs (departments, users) check
// an employee id with it without importing the declaration (a cycle).
export const EMPLOYEE_ID_PREFIX = 'emp';
