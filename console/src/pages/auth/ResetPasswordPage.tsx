import { Page } from '../../components/Page';

/** Not built yet. */
export default function ResetPasswordPage() {
  return <Page title="ResetPasswordPage">{null}</Page>;
}
