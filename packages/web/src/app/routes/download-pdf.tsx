import { Page } from '@/components/ui/page';
import { DownloadPdfButton } from '@/features/pdf/components/download-pdf-button';

export default function DownloadPdfRoute() {
  return (
    <Page title="Download a PDF" intro="Saves the demo PDF under the name the server gives it.">
      <DownloadPdfButton />
    </Page>
  );
}
