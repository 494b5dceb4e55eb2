import { Page } from '@/components/ui/page';
import { PrintPdfButton } from '@/features/pdf/components/print-pdf-button';

export default function PrintPdfRoute() {
  return (
    <Page title="Print a PDF" intro="Opens your browser's print dialog for the demo PDF.">
      <PrintPdfButton />
    </Page>
  );
}
