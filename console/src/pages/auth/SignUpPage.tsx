import { Page } from '../../components/Page';

/** Not built yet. */
export default function SignUpPage() {
  return <Page title="SignUpPage">{null}</Page>;
}
