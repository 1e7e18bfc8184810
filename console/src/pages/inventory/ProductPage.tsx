import { Page } from '../../components/Page';

/** Not built yet. */
export default function ProductPage() {
  return <Page title="ProductPage">{null}</Page>;
}
