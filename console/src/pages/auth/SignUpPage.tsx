import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useSignUp } from '../../api/auth';
import { fieldErrors } from '../../api/problems';
import { SelectField, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { maskDocument, rawDocument } from '../../format/masks';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { SLUG_PROBLEM_TEXT, slugOf, slugProblem } from './recovery';
import { recoveryMessages } from './recovery-messages';

type Plan = 'STARTER' | 'PROFESSIONAL' | 'ENTERPRISE';

/**
 * A company signs up (POST /tenants): its name (the brand), the identifier the API requires
 * (a unique slug, suggested from the name until the user edits it), the plan and the
 * administrator's e-mail, which gets the link that creates the administrator's account. Ends
 * at "check your e-mail": the tenant has no account until that link is opened.
 */
export default function SignUpPage() {
  const t = useMessages(recoveryMessages);
  const c = useMessages(common);
  const [companyName, setCompanyName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [plan, setPlan] = useState<Plan>('STARTER');
  const [adminEmail, setAdminEmail] = useState('');
  const [document, setDocument] = useState('');
  const [tried, setTried] = useState(false);

  const signUp = useSignUp();

  if (signUp.isSuccess) {
    return (
      <Page title={t.checkEmailTitle}>
        <div className="alert alert-ok" role="status">
          <p>{t.checkEmailText(adminEmail.trim())}</p>
        </div>
        <p>
          <Link href="/sign-in">{t.goToSignIn}</Link>
        </p>
      </Page>
    );
  }

  const onName = (value: string) => {
    setCompanyName(value);
    if (!slugEdited) setSlug(slugOf(value));
  };
  const problem = slugProblem(slug);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!problem && companyName.trim() && adminEmail.trim())
      signUp.mutate({
        name: slug,
        brandName: companyName.trim(),
        plan,
        adminEmail: adminEmail.trim(),
        ...(rawDocument(document) ? { document: rawDocument(document) } : {}),
      });
  };
  const fields = fieldErrors(signUp.error);
  const required = (value: string) => (tried && !value.trim() ? c.required : undefined);

  return (
    <Page title={t.signUpTitle}>
      <form onSubmit={onSubmit} className="form" noValidate>
        <p>{t.signUpIntro}</p>
        {signUp.error ? <ProblemAlert error={signUp.error} /> : null}
        <TextField
          label={t.companyName}
          value={companyName}
          onValueChange={onName}
          autoComplete="organization"
          required
          autoFocus
          error={required(companyName) ?? fields.brandName}
        />
        <TextField
          label={t.slug}
          value={slug}
          onValueChange={(value) => {
            setSlugEdited(true);
            setSlug(value.toLowerCase());
          }}
          autoComplete="off"
          spellCheck={false}
          required
          hint={t.slugHint}
          error={(tried && problem ? t[SLUG_PROBLEM_TEXT[problem]] : undefined) ?? fields.name}
        />
        <TextField
          label={t.document}
          value={document}
          onValueChange={setDocument}
          mask={maskDocument}
          inputMode="text"
          autoComplete="off"
          hint={t.documentHint}
          error={fields.document}
        />
        <SelectField
          label={t.plan}
          value={plan}
          onValueChange={(value) => setPlan(value as Plan)}
          options={[
            { value: 'STARTER', label: t.planStarter },
            { value: 'PROFESSIONAL', label: t.planProfessional },
            { value: 'ENTERPRISE', label: t.planEnterprise },
          ]}
          error={fields.plan}
        />
        <TextField
          label={t.adminEmail}
          type="email"
          value={adminEmail}
          onValueChange={setAdminEmail}
          autoComplete="email"
          required
          hint={t.adminEmailHint}
          error={required(adminEmail) ?? fields.adminEmail}
        />
        <button type="submit" className="button primary" disabled={signUp.isPending}>
          {t.signUpSubmit}
        </button>
        <p>
          {t.haveAccount} <Link href="/sign-in">{t.goToSignIn}</Link>
        </p>
      </form>
    </Page>
  );
}
