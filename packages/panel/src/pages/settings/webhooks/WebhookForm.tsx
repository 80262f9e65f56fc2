export function WebhookCreate() {
  return <p>Em construção.</p>;
}
export function WebhookEdit() {
  return <p>Em construção.</p>;
}
