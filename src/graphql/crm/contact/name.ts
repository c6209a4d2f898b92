// A contact's name where a document or report shows one beside its id: first
// and last name, else the company, else the email (always set).

/** The name of the contact row aliased `alias`, in SQL. */
export const contactNameSql = (alias: string) =>
  `coalesce(nullif(btrim(concat_ws(' ', ${alias}."firstName", ${alias}."lastName")), ''), ${alias}.company, ${alias}.email)`;
