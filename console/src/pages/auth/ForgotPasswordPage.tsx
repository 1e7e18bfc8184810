import { Page } from '../../components/Page';

/** Not built yet. */
export default function ForgotPasswordPage() {
  return <Page title="ForgotPasswordPage">{null}</Page>;
}
