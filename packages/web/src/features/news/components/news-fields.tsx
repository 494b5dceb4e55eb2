import type { UseFormRegisterReturn } from 'react-hook-form';
import { InputField, TextareaField } from '@/components/ui/form/field';

export type NewsFieldName = 'title' | 'content' | 'files';

export interface NewsFieldsProps {
  /** `useAppForm(...).register` and `.errorFor` of a form that has these three fields. */
  register: (name: NewsFieldName) => UseFormRegisterReturn;
  errorFor: (name: NewsFieldName) => string | undefined;
  /** `Files` when adding an item, `Add files` when editing one. */
  filesLabel: string;
  filesHint: string;
  /** An edited item may keep its files and add none. */
  filesOptional?: boolean;
}

/** Title, content and files: the fields the add and edit forms share, with the same names and rules. */
export function NewsFields({ register, errorFor, filesLabel, filesHint, filesOptional = false }: NewsFieldsProps) {
  return (
    <>
      <InputField label="Title" autoComplete="off" error={errorFor('title')} {...register('title')} />
      <TextareaField label="Content" error={errorFor('content')} {...register('content')} />
      <InputField
        label={filesLabel}
        type="file"
        multiple
        hint={filesHint}
        optional={filesOptional}
        error={errorFor('files')}
        {...register('files')}
      />
    </>
  );
}
