import { Page } from '../../components/Page';

/** Not built yet. */
export default function AdministrationPage() {
  return <Page title="AdministrationPage">{null}</Page>;
}
