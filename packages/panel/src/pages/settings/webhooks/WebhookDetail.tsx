export function WebhookDetail() {
  return <p>Em construção.</p>;
}
