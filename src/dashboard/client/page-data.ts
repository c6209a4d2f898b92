// What the server writes into the page as JSON data blocks (<script
// type="application/json">, which no browser runs, so the CSP allows them):
// read once, as the app starts, instead of asked for over the network.

/** The block of this id, parsed; `otherwise` when it is missing or unreadable. */
export function pageData<T>(id: string, otherwise: T): T {
  const text = document.getElementById(id)?.textContent;
  try {
    return text ? (JSON.parse(text) as T) : otherwise;
  } catch {
    return otherwise;
  }
}
