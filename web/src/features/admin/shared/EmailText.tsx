/** An e-mail address that may wrap after its '@' rather than at an arbitrary letter. */
export function EmailText({ email }: { email: string | null | undefined }) {
  if (!email) return <>—</>;
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return <>{email.slice(0, at + 1)}<wbr />{email.slice(at + 1)}</>;
}
