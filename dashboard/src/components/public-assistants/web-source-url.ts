/**
 * The address the owner typed into the Websites form, as it is sent: trimmed, and `https://` in
 * front when it has no scheme ("example.com/help"). Pure, unit-tested.
 */
export function withScheme(typed: string): string {
  const value = typed.trim();
  if (!value || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  // "//example.com" and "http:example.com" are not meant as paths: keep what follows the slashes.
  return `https://${value.replace(/^\/\//, "")}`;
}
