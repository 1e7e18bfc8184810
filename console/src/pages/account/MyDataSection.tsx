import { useDownloadMyData } from '../../api/account';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { myDataFileName, myDataText } from './logic';
import { accountMessages } from './messages';

/** How long the file's blob: address lives after the click: the download has long started by then. */
const BLOB_LIFETIME_MS = 60_000;

/** Saves a text as a file the browser downloads: a Blob behind an <a download>, its address released afterwards. */
function saveFile(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), BLOB_LIFETIME_MS);
}

/**
 * GET /auth/me/data saved as a JSON file (the holder's copy, LGPD Art. 19). A mutation, not a
 * query: it runs when asked, its answer (`no-store`) is not kept in the cache, and a 429 after
 * the fifth in an hour shows the API's problem with its wait.
 */
export function MyDataSection() {
  const t = useMessages(accountMessages);
  const download = useDownloadMyData((data) => {
    const fileName = myDataFileName(t.myDataFilePrefix, new Date());
    saveFile(myDataText(data), fileName);
    return fileName;
  });
  return (
    <section className="card" aria-labelledby="my-data-title">
      <h2 id="my-data-title">{t.myDataTitle}</h2>
      <p className="muted">{t.myDataIntro}</p>
      <div className="toolbar">
        <button type="button" className="button secondary" disabled={download.isPending} onClick={() => download.mutate()}>
          {t.myDataDownload}
        </button>
        <span role="status">{download.isPending ? t.myDataPreparing : download.data ? t.myDataSaved(download.data) : ''}</span>
      </div>
      {download.error ? <ProblemAlert error={download.error} /> : null}
    </section>
  );
}
