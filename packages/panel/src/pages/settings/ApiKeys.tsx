export function ApiKeysPage() {
  return <p>Em construção.</p>;
}
