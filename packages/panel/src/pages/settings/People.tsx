export function PeoplePage() {
  return <p>Em construção.</p>;
}
