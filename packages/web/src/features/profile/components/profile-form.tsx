import { useState } from 'react';
import { profileForm, type Profile, type ProfileForm as ProfileValues } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { updateProfile } from '../api/update-profile';

/** The editable part of a profile; absent values are "" (docs/api.md, "Shapes"). */
export function toProfileValues(profile: Profile): ProfileValues {
  const details = profile.user_profile ?? { telephone: '', mobile: '', website: '' };
  return {
    first_name: profile.first_name ?? '',
    last_name: profile.last_name ?? '',
    user_profile: {
      telephone: details.telephone ?? '',
      mobile: details.mobile ?? '',
      website: details.website ?? '',
    },
  };
}

export interface ProfileFormProps {
  profile: Profile;
  onSaved: (profile: Profile) => void;
}

export function ProfileForm({ profile, onSaved }: ProfileFormProps) {
  // Said politely once saved: the summary above changes, but the user is still at the form.
  const [said, setSaid] = useState('');
  const f = useAppForm({
    schema: profileForm,
    defaultValues: toProfileValues(profile),
    labels: {
      first_name: 'First name',
      last_name: 'Last name',
      'user_profile.telephone': 'Telephone',
      'user_profile.mobile': 'Mobile',
      'user_profile.website': 'Website',
    },
    onSubmit: async (values) => {
      setSaid('');
      const saved = await updateProfile(values);
      onSaved(saved);
      setSaid('Profile saved.');
      // The saved profile is the new starting point: the form is clean again.
      f.form.reset(toProfileValues(saved));
    },
  });
  return (
    <FormFrame
      label="Edit profile"
      form={f}
      footer={
        <p role="status" className="form-saved">
          {/* Changed again, the form is no longer what was saved. */}
          {f.canAct ? '' : said}
        </p>
      }
    >
      <div className="form-pair">
        <InputField
          label="First name"
          autoComplete="given-name"
          error={f.errorFor('first_name')}
          {...f.register('first_name')}
        />
        <InputField
          label="Last name"
          autoComplete="family-name"
          error={f.errorFor('last_name')}
          {...f.register('last_name')}
        />
      </div>
      <fieldset className="fieldset">
        <legend>Contact (optional)</legend>
        <InputField
          label="Telephone"
          type="tel"
          autoComplete="tel"
          optional
          error={f.errorFor('user_profile.telephone')}
          {...f.register('user_profile.telephone')}
        />
        <InputField
          label="Mobile"
          type="tel"
          autoComplete="tel"
          optional
          error={f.errorFor('user_profile.mobile')}
          {...f.register('user_profile.mobile')}
        />
        <InputField
          label="Website"
          type="text"
          inputMode="url"
          autoComplete="url"
          optional
          error={f.errorFor('user_profile.website')}
          {...f.register('user_profile.website')}
        />
      </fieldset>
    </FormFrame>
  );
}
