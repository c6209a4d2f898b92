// "a" or "an" before a noun, by its sound as the summaries read it: an employee,
// an invoice, an API key, an OAuth app; a user, a unit, a payroll run.
const OPENS_WITH_A_VOWEL_SOUND = /^(?![Uu]s|[Uu]ni|[Ee]u)[aeiou]/i;

export const withArticle = (noun: string) => `${OPENS_WITH_A_VOWEL_SOUND.test(noun) ? 'an' : 'a'} ${noun}`;
