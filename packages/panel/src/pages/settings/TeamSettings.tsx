export function TeamSettingsPage() {
  return <p>Em construção.</p>;
}
