import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { AccountLinks } from '@/features/account/components/account-links';
import { saveBlob } from '@/features/pdf/components/download-pdf-button';
import { filenameFromContentDisposition } from '@/features/pdf/utils/content-disposition';
import { useProfile } from '@/features/profile/api/get-profile';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { ProfileSummary } from '@/features/profile/components/profile-summary';

/** The export is saved the way the PDF download is: under the name the server gives. */
function saveExport(blob: Blob, contentDisposition: string | null): string {
  const name = filenameFromContentDisposition(contentDisposition) ?? 'account-export.json';
  saveBlob(blob, name);
  return name;
}

export default function UserProfileRoute() {
  const [state, replace] = useProfile();
  return (
    <Page title="Your profile">
      {state.status === 'loading' && <Loading />}
      {state.status === 'ready' && (
        <>
          <ProfileSummary profile={state.profile} />
          <h2>Edit</h2>
          <ProfileForm profile={state.profile} onSaved={replace} />
          <AccountLinks save={saveExport} />
        </>
      )}
    </Page>
  );
}
