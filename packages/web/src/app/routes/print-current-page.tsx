import { Page } from '@/components/ui/page';
import { PrintSample } from '@/features/pdf/components/print-sample';

export default function PrintCurrentPageRoute() {
  return (
    <Page title="Print this page" intro="Only the sample below ends up on paper.">
      <PrintSample />
    </Page>
  );
}
