import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { useProfile } from '@/features/profile/api/get-profile';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { ProfileSummary } from '@/features/profile/components/profile-summary';

export default function UserProfileRoute() {
  const [state, replace] = useProfile();
  return (
    <Page title="Your profile">
      {state.status === 'loading' && <Loading />}
      {state.status === 'ready' && (
        <>
          <ProfileSummary profile={state.profile} />
          <h3>Edit</h3>
          <ProfileForm profile={state.profile} onSaved={replace} />
        </>
      )}
    </Page>
  );
}
