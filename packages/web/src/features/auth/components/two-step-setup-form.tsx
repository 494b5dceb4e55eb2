import type { TotpSetupResponse } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { setUpTwoStep } from '../api/two-step';
import { totpSetupForm } from '../utils/two-step-forms';

/** The password, then a new secret to scan (`onStarted`); nothing is on until a first code confirms it. */
export function TwoStepSetupForm({ onStarted }: { onStarted: (setup: TotpSetupResponse) => void }) {
  const f = useAppForm({
    schema: totpSetupForm,
    defaultValues: { password: '' },
    labels: { password: 'Current password' },
    onSubmit: async ({ password }) => onStarted(await setUpTwoStep(password)),
  });
  return (
    <FormFrame label="Set up two-step sign-in" form={f}>
      <InputField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={f.errorFor('password')}
        {...f.register('password')}
      />
    </FormFrame>
  );
}
