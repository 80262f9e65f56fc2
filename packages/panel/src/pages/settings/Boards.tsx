export function BoardsPage() {
  return <p>Em construção.</p>;
}
