import { useEffect, useRef, useState } from 'react';
import { FormDialog } from '../../components/Dialogs';
import { common } from '../../i18n/common';
import { useMessages } from '../../i18n';
import { countMessages } from './messages';

/** The part of the Barcode Detection API the camera uses (not in TypeScript's DOM types yet). */
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

/** The barcodes of retail products: EAN-13, EAN-8 and UPC-A. */
const FORMATS = ['ean_13', 'ean_8', 'upc_a'];
/** How often a frame is looked at. */
const LOOK_EVERY_MS = 200;

/** Whether the browser reads barcodes (Chrome on Android, Safari 17+ on iOS…): the "Camera" button shows only then. */
export const hasBarcodeDetector = () => typeof window !== 'undefined' && 'BarcodeDetector' in window;

const detectorClass = () => (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;

/**
 * The phone's back camera in a dialog (getUserMedia, facingMode environment), a frame looked at
 * every 200 ms by the browser's BarcodeDetector: the first code read is handed on and the
 * camera stops. A camera refused (by the user or the site's policy) is said; the code field
 * behind still works.
 */
export function CameraScan({
  onRead,
  onClose,
  onCloseAutoFocus,
}: {
  onRead: (code: string) => void;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const t = useMessages(countMessages);
  const c = useMessages(common);
  return (
    <FormDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.cameraTitle}
      description={t.cameraDescription}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <CameraView onRead={onRead} />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          {c.close}
        </button>
      </div>
    </FormDialog>
  );
}

function CameraView({ onRead }: { onRead: (code: string) => void }) {
  const t = useMessages(countMessages);
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'starting' | 'on' | 'failed'>('starting');
  const read = useRef(onRead);
  useEffect(() => {
    read.current = onRead;
  });
  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    const start = async () => {
      const Detector = detectorClass();
      if (!Detector || !navigator.mediaDevices?.getUserMedia) throw new Error('no camera');
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      const element = video.current;
      if (stopped || !element) return stop();
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      setState('on');
      const detector = new Detector({ formats: FORMATS });
      const look = async () => {
        if (stopped) return;
        try {
          const code = (await detector.detect(element)).find((barcode) => barcode.rawValue)?.rawValue;
          if (code && !stopped) {
            stop();
            read.current(code);
            return;
          }
        } catch {
          // A frame not ready yet: the next one is looked at.
        }
        timer = setTimeout(() => void look(), LOOK_EVERY_MS);
      };
      void look();
    };
    start().catch(() => (stopped ? undefined : setState('failed')));
    return stop;
  }, []);
  return (
    <div className="camera">
      {state === 'failed' ? (
        <p className="alert alert-error" role="alert">
          {t.cameraFailed}
        </p>
      ) : (
        <p className="muted small" role="status">
          {state === 'starting' ? t.cameraStarting : ''}
        </p>
      )}
      <video ref={video} className="camera-video" muted playsInline aria-label={t.cameraPreview} hidden={state === 'failed'} />
    </div>
  );
}
