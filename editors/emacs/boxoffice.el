;;; boxoffice.el --- Korean box office (KOBIS)  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 boxoffice-worker maintainers

;; Author: boxoffice-worker maintainers <maintainers@boxoffice-worker.org>
;; Version: 0.2.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: multimedia, comm
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; The Korean box office (KOBIS) in Emacs buffers: a day's or a week's top
;; 10, a movie's detail with its poster, a title search and the worker's
;; status.  The figures come from boxoffice-worker, which this package
;; starts once per Emacs and speaks JSON-RPC to over pipes.  Every command
;; returns at once; its buffer is drawn when the answer comes, so Emacs
;; never waits for the network.
;;
;; Commands:
;;   M-x boxoffice-daily     a day's top 10 (C-u: also every entry's detail
;;                           and poster, counted in the echo area)
;;   M-x boxoffice-weekly    a week's, weekend's or weekdays' top 10 (C-u:
;;                           also the details and posters, as daily)
;;   M-x boxoffice-movie     a movie's detail by its KOBIS code
;;   M-x boxoffice-search    movies by title
;;   M-x boxoffice-status    the worker: version, mode, quota, cache
;;   M-x boxoffice-stop-worker
;;
;; In a list, RET opens the movie on the line, g asks again bypassing the
;; cache, S (or a click on a column name) sorts.  In every buffer q closes
;; it, cancelling a call it still waits for.
;;
;; Install with M-x package-install-file RET boxoffice.el, or put this
;; directory on `load-path' and (require 'boxoffice).  The worker itself
;; comes from pip, the .deb or scripts/install (see its README).
;;
;; Without KOBIS_API_KEY in its environment the worker answers from its
;; recorded days (offline).  Set the key, or add "KOBIS_API_KEY=..." to
;; `boxoffice-worker-environment', to go live.
;;
;; The project has no public address yet, so this file has no URL
;; header (neither byte-compiling nor package-install-file needs one).
;; Its documentation is in the worker's repository: docs/editors.md
;; says word for word what this package and the Neovim plugin draw, and
;; the README how to install both.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tabulated-list)

(defconst boxoffice-version "0.2.0"
  "The version of this package, the worker's version it was written with.")

(defgroup boxoffice nil
  "Korean box office figures from boxoffice-worker."
  :group 'applications
  :prefix "boxoffice-")

(defcustom boxoffice-binary nil
  "The boxoffice-worker executable, or nil to look for it.
Nil looks at $BOXOFFICE_WORKER, then for boxoffice-worker in the
variable `exec-path', then in ~/.local/bin, /usr/local/bin and
/usr/bin, where the packages install it."
  :type '(choice (const :tag "Look for it" nil) file))

(defcustom boxoffice-cache-directory nil
  "The worker's cache directory (--cache-dir), or nil for its default.
Its default is $BOXOFFICE_CACHE_DIR, else ~/.cache/boxoffice-worker.
Downloaded posters are kept there too."
  :type '(choice (const :tag "The worker's default" nil) directory))

(defcustom boxoffice-offline nil
  "Non-nil starts the worker with --offline: recorded days only.
The worker is offline anyway when KOBIS_API_KEY is not set."
  :type 'boolean)

(defcustom boxoffice-worker-arguments nil
  "More flags for the worker, after the others.
For instance (\"--database-url\" \"postgres://...\") or
(\"--kobis-daily-limit\" \"500\").  A change applies to the next
worker started: see `boxoffice-stop-worker'."
  :type '(repeat string))

(defcustom boxoffice-worker-environment nil
  "Environment entries \"VAR=value\" for the worker, before the others.
For instance \"KOBIS_API_KEY=...\" to go live, or
\"BOXOFFICE_TODAY=2023-04-27\" to replay a day (today-N dates are
reckoned from it too).  A change applies to the next worker
started: see `boxoffice-stop-worker'."
  :type '(repeat string))

(defface boxoffice-rank-new
  '((((class color) (background dark)) :foreground "hot pink")
    (((class color)) :foreground "deep pink")
    (t :weight bold))
  "Face of a new entry's change, 신작 (pink, as the apps draw it).")

(defface boxoffice-rank-up
  '((((class color) (background dark)) :foreground "tomato")
    (((class color)) :foreground "red")
    (t :weight bold))
  "Face of a climb, ▲n (red, as the apps draw it).")

(defface boxoffice-rank-down
  '((((class color) (background dark)) :foreground "light sky blue")
    (((class color)) :foreground "blue")
    (t :slant italic))
  "Face of a fall, ▼n (blue, as the apps draw it).")

(defface boxoffice-rank-same
  '((t :inherit shadow))
  "Face of an unchanged rank, -.")

;;;; The worker

(defconst boxoffice--log-buffer "*boxoffice-worker log*"
  "The buffer that keeps the worker's stderr and this package's notes.")

(defconst boxoffice--install-lines
  (concat "  pip install ./boxoffice_worker-" boxoffice-version
          "-py3-none-manylinux_2_35_x86_64.whl\n"
          "  sudo apt install ./boxoffice-worker_" boxoffice-version
          "_amd64.deb\n"
          "  bash scripts/install ~/.local   "
          "(in a clone of boxoffice-worker, with Swift)")
  "How to install the worker, said whenever it cannot be found.")

(defconst boxoffice--install-places
  '("~/.local/bin/boxoffice-worker" "/usr/local/bin/boxoffice-worker"
    "/usr/bin/boxoffice-worker")
  "Where pip --user or uv, scripts/install and the .deb put the worker.")

(defvar boxoffice--process nil
  "The worker, or nil until a command needs one.")

(defvar boxoffice--last-id 0
  "The last request id; ids are never reused in one Emacs session.
A call sent again to a new worker keeps its id, so no worker ever
sees two requests with one id in flight.")

(defvar boxoffice--calls (make-hash-table)
  "The calls not yet answered, by id.
An answer whose id is not here (a cancelled call's -32800) is dropped.")

(cl-defstruct (boxoffice--call (:constructor boxoffice--make-call)
                               (:copier nil))
  "A request in flight: what to send again if its worker dies."
  id method params callback on-progress process resent)

(defun boxoffice--append-log (text)
  "Append TEXT to the log buffer, with `boxoffice--lines' stand-ins.
What the worker wrote keeps its lines, but no character of it can
act or turn the lines around in the buffer."
  (with-current-buffer (get-buffer-create boxoffice--log-buffer)
    (save-excursion
      (goto-char (point-max))
      (let ((inhibit-read-only t))
        (insert (boxoffice--lines text))))))

(defun boxoffice--log (format-string &rest args)
  "Append FORMAT-STRING formatted with ARGS to the log buffer."
  (boxoffice--append-log
   (concat "boxoffice.el: " (apply #'format format-string args) "\n")))

(defun boxoffice--stderr (_process text)
  "Append TEXT, the next piece of the worker's stderr, to the log buffer.
The filter of the pipe that reads the worker's stderr."
  (boxoffice--append-log text))

(defun boxoffice--named (name)
  "The file NAME names, a bare name looked for in variable `exec-path'."
  (if (file-name-directory name)
      (expand-file-name name)
    (or (executable-find name) name)))

(defun boxoffice--executable-p (file)
  "Whether FILE is an executable file, not a directory."
  (and file (file-executable-p file) (not (file-directory-p file))))

(defun boxoffice--binary ()
  "Return the worker executable, looked for as in docs/editors.md.
A binary named by `boxoffice-binary' or $BOXOFFICE_WORKER is used or
refused, never skipped for another.  Signal a `user-error' with the
install lines when there is none."
  (let* ((variable (getenv "BOXOFFICE_WORKER"))
         (named (cond (boxoffice-binary
                       (cons boxoffice-binary "boxoffice-binary"))
                      ((and variable (not (string-empty-p variable)))
                       (cons variable "BOXOFFICE_WORKER")))))
    (if named
        (let ((binary (boxoffice--named (car named))))
          (if (boxoffice--executable-p binary)
              binary
            (user-error "%s names %s, which is not an executable file; \
set it to the worker, or install the worker with one of:\n%s"
                        (cdr named) (car named) boxoffice--install-lines)))
      (or (executable-find "boxoffice-worker")
          (cl-find-if #'boxoffice--executable-p
                      (mapcar #'expand-file-name boxoffice--install-places))
          (user-error "boxoffice-worker was not found ($BOXOFFICE_WORKER, \
PATH, ~/.local/bin, /usr/local/bin, /usr/bin); install it with one of:\n%s"
                      boxoffice--install-lines)))))

(defun boxoffice--start-worker (&optional restart)
  "Start a worker and make it the one commands use; return it.
RESTART non-nil marks it as started in place of one that died with
calls in flight: if it dies too before answering anything, it is
not restarted (see `boxoffice--recover')."
  (let* ((command (append (list (boxoffice--binary))
                          (and boxoffice-offline '("--offline"))
                          (and boxoffice-cache-directory
                               (list "--cache-dir"
                                     (expand-file-name
                                      boxoffice-cache-directory)))
                          boxoffice-worker-arguments))
         ;; A remote or vanished `default-directory' must not decide
         ;; whether the worker can start.
         (default-directory "/")
         (process-environment (append boxoffice-worker-environment
                                      process-environment))
         ;; An answer is read as soon as it is written: adaptive
         ;; buffering would hold small answers back.
         (process-adaptive-read-buffering nil)
         ;; The worker's stderr goes through `boxoffice--stderr', which
         ;; draws what an upstream put in a log line as the screens do.
         ;; The pipe ends when the worker does.
         (stderr (make-pipe-process
                  :name "boxoffice-worker stderr"
                  :buffer (get-buffer-create boxoffice--log-buffer)
                  :coding 'utf-8-unix
                  :noquery t
                  :filter #'boxoffice--stderr
                  :sentinel #'ignore))
         (process (condition-case err
                      (make-process
                       :name "boxoffice-worker"
                       :command command
                       :connection-type 'pipe
                       :coding 'utf-8-unix
                       :noquery t
                       :stderr stderr
                       :filter #'boxoffice--filter
                       :sentinel #'boxoffice--sentinel)
                    (error (delete-process stderr)
                           (signal (car err) (cdr err))))))
    (process-put process 'boxoffice-restart restart)
    (boxoffice--log "started %s (pid %d)" (string-join command " ")
                    (process-id process))
    (add-hook 'kill-emacs-hook #'boxoffice-stop-worker)
    (setq boxoffice--process process)))

(defun boxoffice--worker ()
  "Return the running worker, starting one if there is none."
  (if (process-live-p boxoffice--process)
      boxoffice--process
    (boxoffice--start-worker)))

(defun boxoffice--write (process message)
  "Write MESSAGE, an alist, to PROCESS as one JSON line.
A worker that has just died cannot be written to; its sentinel then
deals with the calls it had."
  (let ((line (concat (json-serialize message) "\n")))
    (condition-case err
        (process-send-string process line)
      (error (boxoffice--log "could not write to the worker: %s"
                             (error-message-string err))))))

(defun boxoffice--send (call process)
  "Send CALL to PROCESS and keep it until it is answered."
  (setf (boxoffice--call-process call) process)
  (puthash (boxoffice--call-id call) call boxoffice--calls)
  (boxoffice--write process `((jsonrpc . "2.0")
                              (id . ,(boxoffice--call-id call))
                              (method . ,(boxoffice--call-method call))
                              (params . ,(boxoffice--call-params call)))))

(defun boxoffice--request (method params callback &optional on-progress)
  "Ask the worker METHOD with PARAMS, an alist; return the id at once.
CALLBACK is called with (RESULT ERROR) when the answer comes: the
result (an alist; nil for an empty object) and nil, or nil and the
error (an alist whose `message' says what went wrong, also when the
worker died).  ON-PROGRESS, a function of (PROGRESS TOTAL), asks
the worker for progress (`_meta.progressToken') and is called with
each notification.  Nothing here waits for the worker."
  (let* ((process (boxoffice--worker))
         (id (cl-incf boxoffice--last-id)))
    (boxoffice--send (boxoffice--make-call
                      :id id :method method
                      :params (if on-progress
                                  (cons `(_meta (progressToken . ,id)) params)
                                params)
                      :callback callback :on-progress on-progress)
                     process)
    id))

(defun boxoffice--cancel (id)
  "Forget the call ID and ask its worker to stop working on it.
Its answer, -32800 or a result that crossed the cancel, is dropped."
  (let ((call (gethash id boxoffice--calls)))
    (when call
      (remhash id boxoffice--calls)
      (let ((process (boxoffice--call-process call)))
        (when (process-live-p process)
          (boxoffice--write process `((jsonrpc . "2.0")
                                      (method . "$/cancelRequest")
                                      (params (id . ,id)))))))))

(defun boxoffice--run-callback (call result error)
  "Give CALL's callback RESULT and ERROR.
A callback that fails is reported without stopping the lines after
it in the same piece of output."
  (condition-case-unless-debug err
      (funcall (boxoffice--call-callback call) result error)
    (error (message "boxoffice: %s"
                    (boxoffice--lines (error-message-string err))))))

(defun boxoffice--filter (process text)
  "Read TEXT, the next piece of PROCESS's stdout, a line at a time.
The worker writes one JSON value a line, but a piece may end inside
a line or hold several: what follows the last newline is kept on
PROCESS until the rest of its line comes."
  (let ((start 0) newline)
    (while (setq newline (string-match-p "\n" text start))
      (let ((line (apply #'concat
                         (nreverse (cons (substring text start newline)
                                         (process-get process
                                                      'boxoffice-pieces))))))
        (process-put process 'boxoffice-pieces nil)
        (unless (string-empty-p line)
          (boxoffice--handle-line process line)))
      (setq start (1+ newline)))
    (when (< start (length text))
      (process-put process 'boxoffice-pieces
                   (cons (substring text start)
                         (process-get process 'boxoffice-pieces))))))

(defun boxoffice--handle-line (process line)
  "Act on LINE, one JSON value from PROCESS: an answer or a progress."
  (let ((message (condition-case err
                     (json-parse-string line :object-type 'alist
                                        :array-type 'list :null-object nil
                                        :false-object :false)
                   (json-error
                    (boxoffice--log "unreadable line from the worker (%s): %s"
                                    (error-message-string err) line)
                    nil))))
    (cond
     ((or (assq 'result message) (assq 'error message))
      (process-put process 'boxoffice-answered t)
      (let ((call (gethash (alist-get 'id message) boxoffice--calls)))
        (when call
          (remhash (boxoffice--call-id call) boxoffice--calls)
          (boxoffice--run-callback call (alist-get 'result message)
                                   (alist-get 'error message)))))
     ((equal (alist-get 'method message) "notifications/progress")
      (let* ((params (alist-get 'params message))
             (call (gethash (alist-get 'progressToken params)
                            boxoffice--calls)))
        (when (and call (boxoffice--call-on-progress call))
          (funcall (boxoffice--call-on-progress call)
                   (alist-get 'progress params) (alist-get 'total params))))))))

(defun boxoffice--exit-reason (process)
  "Say how PROCESS ended, naming its exit code or signal."
  (if (eq (process-status process) 'signal)
      (format "was killed by signal %d" (process-exit-status process))
    (format "exited with code %d" (process-exit-status process))))

(defun boxoffice--fail (calls text)
  "Answer each of CALLS with an error whose message is TEXT."
  (dolist (call calls)
    (remhash (boxoffice--call-id call) boxoffice--calls)
    (boxoffice--run-callback call nil `((message . ,text)))))

(defconst boxoffice--stopped "the worker was stopped before it answered"
  "What a call says when its worker is stopped before answering it.")

(defun boxoffice--calls-of (process)
  "The calls sent to PROCESS and not yet answered."
  (cl-remove-if-not (lambda (call) (eq (boxoffice--call-process call) process))
                    (hash-table-values boxoffice--calls)))

(defun boxoffice--sentinel (process _event)
  "Deal with the calls PROCESS leaves unanswered when it ends."
  (unless (process-live-p process)
    (boxoffice--log "the worker (pid %s) %s" (process-id process)
                    (boxoffice--exit-reason process))
    (when (eq process boxoffice--process)
      (setq boxoffice--process nil))
    (let ((calls (boxoffice--calls-of process)))
      (cond ((process-get process 'boxoffice-stopping)
             (boxoffice--fail calls boxoffice--stopped))
            (calls (boxoffice--recover process calls))
            ((not (process-live-p boxoffice--process))
             (message "boxoffice: the worker %s; the next command restarts it"
                      (boxoffice--exit-reason process)))))))

(defun boxoffice--recover (process calls)
  "Send CALLS, which PROCESS died with, to a new worker, once.
If PROCESS was itself such a restart and answered nothing, nothing
restarts: CALLS fail, and the next command starts a worker afresh.
A call already sent again once fails rather than going a third time."
  (let ((reason (concat "the worker " (boxoffice--exit-reason process))))
    (if (and (process-get process 'boxoffice-restart)
             (not (process-get process 'boxoffice-answered)))
        (boxoffice--fail calls (concat reason " after a restart, before"
                                       " answering anything; not restarting"
                                       " (its stderr is in "
                                       boxoffice--log-buffer ")"))
      (let ((again (cl-remove-if #'boxoffice--call-resent calls)))
        (boxoffice--fail (cl-remove-if-not #'boxoffice--call-resent calls)
                         (concat reason "; the call was already sent twice"))
        (when again
          (condition-case err
              (let ((worker (if (process-live-p boxoffice--process)
                                boxoffice--process
                              (boxoffice--start-worker t))))
                (message "boxoffice: %s; restarted it and sent %d call%s again"
                         reason (length again) (if (cdr again) "s" ""))
                (dolist (call again)
                  (setf (boxoffice--call-resent call) t)
                  (boxoffice--send call worker)))
            (error (boxoffice--fail again (error-message-string err)))))))))

(defun boxoffice-stop-worker ()
  "Stop the worker; the next command starts a new one.
Its stdin is closed, so it finishes what is in flight and exits; it
is killed if it is still there after a second, and the calls it has
not answered fail: the worker was stopped before it answered.  Emacs
does this when it exits.  Stop it by hand to start a worker with
changed options, such as `boxoffice-worker-environment'."
  (interactive)
  (let ((process boxoffice--process))
    (setq boxoffice--process nil)
    (when process
      (process-put process 'boxoffice-stopping t)
      (when (process-live-p process)
        (process-send-eof process)
        ;; JUST-THIS-ONE: read the worker alone.  On `kill-emacs-hook' after
        ;; the terminal went away (SIGHUP), waiting on every input source
        ;; kept Emacs spinning on the dead terminal instead of exiting.
        (let ((deadline (+ (float-time) 1)))
          (while (and (process-live-p process) (< (float-time) deadline))
            (accept-process-output process 0.05 nil t))))
      (delete-process process)
      ;; What it did not answer in that second fails now, whether or not
      ;; its sentinel has run yet; the sentinel then finds nothing to do.
      (boxoffice--fail (boxoffice--calls-of process) boxoffice--stopped))))

;;;; Buffers that wait for answers

(defvar-local boxoffice--ask nil
  "How this buffer asks for its contents: a function of REFRESH.
`g' calls it with t, which bypasses the worker's cache.")

(defvar-local boxoffice--buffer-calls nil
  "The ids of the calls whose answers this buffer waits for.")

(defvar-local boxoffice--state nil
  "Where this buffer is: `waiting', `drawn' or `failed'.")

(defvar-local boxoffice--heading nil
  "The header line of the last answer drawn, kept while asking again.")

(defconst boxoffice--unsafe
  "[\0-\37\177\u0080-\u009f\u2028-\u202e\u2066-\u2069]"
  "A character no text from the worker is drawn with.
The C0 controls and DEL, the C1 controls (U+0080 to U+009F), the
line and paragraph separators U+2028 and U+2029, the bidi embeddings
and overrides U+202A to U+202E and the bidi isolates U+2066 to U+2069:
what the worker's CLI draws as a stand-in too.")

(defun boxoffice--stand-in (char)
  "The stand-in of CHAR, a character `boxoffice--unsafe' matches.
A C0 control's picture U+2400 above it, DEL's ␡, else � (U+FFFD)."
  (cond ((< char 32) (+ #x2400 char))
        ((= char 127) #x2421)
        (t #xfffd)))

(defun boxoffice--one-line (text)
  "TEXT with each control character as a stand-in one column wide.
A newline becomes ␊ (U+240A), a carriage return ␍, a tab ␉: any
character U+0000 to U+001F the picture U+2400 above it, DEL ␡.  A C1
control, a bidi embedding, override or isolate and U+2028/U+2029
become � (U+FFFD), as the worker's CLI draws them.  A title from the
worker that holds one keeps its row of a table on one line, its
columns in line, and cannot turn the rest of its row around (U+202E)
or reach a terminal as its CSI (U+009B)."
  (let ((case-fold-search nil))
    (if (string-match-p boxoffice--unsafe text)
        (replace-regexp-in-string
         boxoffice--unsafe
         (lambda (char) (string (boxoffice--stand-in (aref char 0))))
         text t t)
      text)))

(defun boxoffice--lines (text)
  "TEXT through `boxoffice--one-line' a line at a time, its newlines kept.
For the echo area and the log, which show a message's lines."
  (mapconcat #'boxoffice--one-line (split-string text "\n") "\n"))

(defun boxoffice--printable (value)
  "VALUE, a parsed answer of the worker, with its strings on one line.
A copy with every string in it through `boxoffice--one-line'; keys,
numbers and the like are kept as they are."
  (cond ((stringp value) (boxoffice--one-line value))
        ((consp value)
         (let (items)
           (while (consp value)
             (push (boxoffice--printable (car value)) items)
             (setq value (cdr value)))
           ;; What ends the list: nil, or the value of a dotted pair.
           (nconc (nreverse items) (boxoffice--printable value))))
        ((vectorp value) (vconcat (mapcar #'boxoffice--printable value)))
        (t value)))

(defun boxoffice--call-for (buffer method params callback &optional on-progress)
  "Ask METHOD with PARAMS for BUFFER; return the id.
As `boxoffice--request' with ON-PROGRESS, but CALLBACK runs in
BUFFER, and only if BUFFER still lives; killing BUFFER first
cancels the call.  CALLBACK gets the result with its strings on one
line (`boxoffice--printable'), for the screens to draw."
  (let (id)
    (setq id (boxoffice--request
              method params
              (lambda (result error)
                (when (buffer-live-p buffer)
                  (with-current-buffer buffer
                    (setq boxoffice--buffer-calls
                          (delq id boxoffice--buffer-calls))
                    (funcall callback (boxoffice--printable result) error))))
              on-progress))
    (with-current-buffer buffer
      (push id boxoffice--buffer-calls))
    id))

(defun boxoffice--cancel-buffer-calls ()
  "Cancel the calls the current buffer waits for.
On `kill-buffer-hook': nobody will read their answers."
  (mapc #'boxoffice--cancel boxoffice--buffer-calls)
  (setq boxoffice--buffer-calls nil))

(defun boxoffice--header (text)
  "TEXT as a `header-line-format' that shows it as it is.
Its characters through `boxoffice--one-line', its % signs doubled."
  (replace-regexp-in-string "%" "%%" (boxoffice--one-line text) t t))

(defun boxoffice--ask-again (refresh)
  "Ask for the current buffer's contents again, with REFRESH.
An answer still awaited for the buffer is no longer wanted."
  (boxoffice--cancel-buffer-calls)
  (setq boxoffice--state 'waiting)
  (setq header-line-format
        (boxoffice--header
         (concat (or boxoffice--heading
                     (string-trim (buffer-name) "\\*" "\\*"))
                 " · asking the worker…")))
  (funcall boxoffice--ask refresh))

(defun boxoffice--revert (&rest _)
  "Ask again with refresh, as `revert-buffer-function' (bound to g)."
  (boxoffice--ask-again t))

(defun boxoffice--open (name mode ask)
  "Return the buffer NAME in MODE, asking for its contents with ASK.
ASK, a function of REFRESH, is what `g' calls again.  The worker is
started (or found missing) before any buffer is made."
  (boxoffice--worker)
  (let ((buffer (or (get-buffer name)
                    (with-current-buffer (generate-new-buffer name)
                      (funcall mode)
                      (current-buffer)))))
    (with-current-buffer buffer
      (setq boxoffice--ask ask)
      (boxoffice--ask-again nil))
    buffer))

(defun boxoffice--say (level format-string &rest args)
  "Say FORMAT-STRING with ARGS after \"boxoffice: \" in the echo area.
LEVEL, `error' or `warning', is the face it is said in.  What the
worker said is in ARGS: its lines are kept, its other characters go
through `boxoffice--one-line'."
  (message "%s" (propertize (concat "boxoffice: "
                                    (boxoffice--lines
                                     (apply #'format format-string args)))
                            'face level)))

(defun boxoffice--width ()
  "How many columns a line of the current buffer can take.
As many as its window shows without continuing the line: in a
terminal the window's width less one, as the last column holds the
continuation glyph.  The window showing the buffer, else the
selected one."
  (window-max-chars-per-line
   (or (get-buffer-window (current-buffer) t) (selected-window))))

(defun boxoffice--break-word (word width)
  "WORD in pieces of at most WIDTH display columns.
A path or an address breaks after a slash where one is near."
  (let (pieces)
    (while (> (string-width word) width)
      (let* ((piece (truncate-string-to-width word width))
             (slash (string-match-p "/[^/]*\\'" piece)))
        (when (and slash (> slash (/ (length piece) 2)))
          (setq piece (substring piece 0 (1+ slash))))
        ;; A character wider than WIDTH goes on a line of its own.
        (when (string-empty-p piece)
          (setq piece (substring word 0 1)))
        (push piece pieces)
        (setq word (substring word (length piece)))))
    (nreverse (cons word pieces))))

(defun boxoffice--wrap (text width &optional prose)
  "TEXT in lines of at most WIDTH display columns, as `string-width' says.
Lines break after \", \", as the CLI's detail screen breaks a list,
so that a \"name (role)\" stays whole; a piece too wide for a line
breaks at its spaces, a word too wide at WIDTH.  PROSE non-nil
breaks at every space: word wrap."
  (let (pieces lines current)
    ;; Each piece is (TEXT . GLUE), GLUE joining it to the piece before
    ;; when both go on one line.
    (cl-loop for (item . more) on (if prose
                                      (list text)
                                    (split-string text ", "))
             for piece = (if more (concat item ",") item)
             do (if (and (not prose) (<= (string-width piece) width))
                    (push (cons piece " ") pieces)
                  (dolist (word (split-string piece " " t))
                    (let ((glue " "))
                      (dolist (part (boxoffice--break-word word width))
                        (push (cons part glue) pieces)
                        (setq glue ""))))))
    (dolist (piece (nreverse pieces))
      (let ((joined (and current (concat current (cdr piece) (car piece)))))
        (cond ((null current) (setq current (car piece)))
              ((<= (string-width joined) width) (setq current joined))
              (t (push current lines)
                 (setq current (car piece))))))
    (nreverse (cons (or current "") lines))))

(defun boxoffice--insert-field (label value label-width width)
  "Insert LABEL in a column LABEL-WIDTH wide, VALUE wrapped after it.
No line is wider than WIDTH; the value's next lines are indented
under its first.  The poster's path or address stays whole on its
line, to be copied, as the Neovim plugin keeps it."
  (let ((lead (propertize (format (format "%%-%ds" label-width) label)
                          'face 'shadow)))
    (dolist (line (if (and (equal label "Poster")
                           (not (string-prefix-p "(" value)))
                      (list value)
                    (boxoffice--wrap value (max 10 (- width label-width)))))
      (insert lead line "\n")
      (setq lead (make-string label-width ?\s)))))

(defun boxoffice--redraw (draw state)
  "Draw the current buffer afresh with DRAW, leaving it in STATE.
DRAW is called with the width a line can take (`boxoffice--width')
in the emptied buffer.  Point stays on its line; the buffer is left
unmodified, as nothing in it is the user's."
  (let ((line (line-number-at-pos))
        (width (boxoffice--width))
        (inhibit-read-only t))
    (erase-buffer)
    (funcall draw width)
    (goto-char (point-min))
    (forward-line (1- line))
    (set-buffer-modified-p nil)
    (setq boxoffice--state state)))

(defun boxoffice--show-error (error)
  "Say ERROR's message in the echo area and as the current buffer.
In the buffer it is wrapped to the window, as nothing is cut off."
  (let ((text (format "%s" (or (alist-get 'message error) error))))
    (boxoffice--say 'error "%s" text)
    (when (derived-mode-p 'tabulated-list-mode)
      (setq tabulated-list-entries nil))
    (setq header-line-format
          (boxoffice--header (concat (string-trim (buffer-name) "\\*" "\\*")
                                     " · failed")))
    (boxoffice--redraw
     (lambda (width)
       (dolist (line (split-string (concat "boxoffice: " text) "\n"))
         (dolist (piece (boxoffice--wrap (boxoffice--one-line line) width t))
           (insert piece "\n"))))
     'failed)))

(defun boxoffice--setup-buffer ()
  "Make the current buffer cancel its calls when killed and ask on g."
  (add-hook 'kill-buffer-hook #'boxoffice--cancel-buffer-calls nil t)
  (setq-local revert-buffer-function #'boxoffice--revert))

;;;; Dates

(defun boxoffice--noon (date)
  "The time of noon UTC on DATE, YYYY-MM-DD."
  (let ((parts (mapcar #'string-to-number (split-string date "-"))))
    (encode-time (list 0 0 12 (nth 2 parts) (nth 1 parts) (nth 0 parts)
                       nil nil 0))))

(defun boxoffice--today ()
  "Today in Seoul, or $BOXOFFICE_TODAY as the worker will see it."
  (let* ((process-environment (append boxoffice-worker-environment
                                      process-environment))
         (today (getenv "BOXOFFICE_TODAY")))
    (if (and today (string-match-p "\\`[0-9]\\{4\\}-[0-9][0-9]-[0-9][0-9]\\'"
                                   today))
        today
      ;; Seoul is UTC+9 all year round.
      (format-time-string "%F" nil (* 9 3600)))))

(defun boxoffice--date (text)
  "The `date' parameter for TEXT, in the CLI's forms; nil for yesterday.
YYYY-MM-DD and YYYYMMDD name a day; yesterday (or nothing) leaves
the choice to the worker, whose default is yesterday in Seoul, or
offline the latest recorded day; today is today in Seoul, or
$BOXOFFICE_TODAY when it is set, and today-N is N days before it.
The words are taken in any case.  Anything else is a `user-error'."
  (let ((word (and text (downcase (string-trim text)))))
    (cond
     ((member word '(nil "" "yesterday")) nil)
     ((string-match-p "\\`[0-9]\\{4\\}-[0-9][0-9]-[0-9][0-9]\\'" word) word)
     ((string-match "\\`\\([0-9]\\{4\\}\\)\\([0-9][0-9]\\)\\([0-9][0-9]\\)\\'"
                    word)
      (format "%s-%s-%s" (match-string 1 word) (match-string 2 word)
              (match-string 3 word)))
     ((string-match "\\`today\\(?:-\\([0-9]+\\)\\)?\\'" word)
      (let ((days (if (match-beginning 1)
                      (string-to-number (match-string 1 word))
                    0)))
        (format-time-string
         "%F" (time-subtract (boxoffice--noon (boxoffice--today))
                             (* 86400 days))
         0)))
     (t (user-error "\"%s\" is not a date: use YYYY-MM-DD, YYYYMMDD, \
yesterday or today-N" text)))))

(defun boxoffice--read-date (prompt)
  "Read a date with PROMPT, yesterday by default."
  (read-string (format "%s (YYYY-MM-DD, YYYYMMDD, today-N; yesterday): "
                       prompt)
               nil nil "yesterday"))

(defun boxoffice--weekday (date)
  "The English short name of DATE's weekday, whatever the locale."
  (aref ["Sun" "Mon" "Tue" "Wed" "Thu" "Fri" "Sat"]
        (nth 6 (decode-time (boxoffice--noon date) 0))))

;;;; Lists: box offices and searches

(defun boxoffice-quit ()
  "Close this buffer: kill it, and quit its window as `quit-window' does.
Killing it cancels a call it still waits for."
  (interactive)
  (quit-window t))

(defvar boxoffice-list-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'boxoffice-open-movie)
    (define-key map "q" #'boxoffice-quit)
    map)
  "Keys of `boxoffice-list-mode' besides those of `tabulated-list-mode'.")

(define-derived-mode boxoffice-list-mode tabulated-list-mode "Box office"
  "A box office or a search, a movie a line.
\\<boxoffice-list-mode-map>\\[boxoffice-open-movie] opens the movie on the \
line, \\[revert-buffer] asks again bypassing the cache,
\\[tabulated-list-sort] sorts by the column at point, \\[boxoffice-quit] closes.

\\{boxoffice-list-mode-map}"
  ;; The header line names the day and the source; the column names are
  ;; the first line, as in the CLI's screen.
  (setq tabulated-list-use-header-line nil)
  (setq tabulated-list-padding 0)
  (boxoffice--setup-buffer))

(defun boxoffice-open-movie ()
  "Show the detail of the movie on this line."
  (interactive)
  (let ((code (tabulated-list-get-id)))
    (unless code
      (user-error "boxoffice: no movie on this line"))
    (pop-to-buffer (boxoffice-movie code))))

(defun boxoffice--keyed (text key)
  "TEXT carrying KEY, the number its column sorts by."
  (propertize text 'boxoffice-key key))

(defun boxoffice--by-key (column)
  "A sorter comparing COLUMN's cells by their numbers, not their text."
  (lambda (a b)
    (< (or (get-text-property 0 'boxoffice-key (aref (cadr a) column)) 0)
       (or (get-text-property 0 'boxoffice-key (aref (cadr b) column)) 0))))

(defun boxoffice--fit (text width)
  "TEXT cut to WIDTH display columns with an ellipsis where it is cut."
  (truncate-string-to-width (or text "") width nil nil "…"))

(defun boxoffice--column-width (name texts limit)
  "The width of column NAME holding TEXTS, in display columns.
The widest of TEXTS, at most LIMIT, at least NAME's own width."
  (min limit (apply #'max (string-width name)
                    (mapcar (lambda (text) (string-width (or text "")))
                            texts))))

(defun boxoffice--apart (format)
  "FORMAT, a `tabulated-list-format', with its column names kept apart.
The name of the column sorted by gains \" ▼\" or \" ▲\", two more
columns, and a name wider than its column runs into the padding
after it: every column but the last gets padding enough for its
name, arrow included, and one space more.  The rows move with
their names, so they stay lined up under them."
  (let ((last (1- (length format))))
    (apply #'vector
           (cl-loop
            for column across format
            for n from 0
            collect
            (if (= n last)
                column
              (pcase-let* ((`(,name ,width ,sort . ,props) column)
                           (room (+ (string-width name) (if sort 3 1))))
                `(,name ,width ,sort
                        ,@(plist-put (copy-sequence props) :pad-right
                                     (max 1 (or (plist-get props :pad-right) 1)
                                          (- room width))))))))))

(defun boxoffice--draw-list (heading format rows)
  "Draw ROWS in the current buffer with FORMAT under HEADING.
FORMAT is a `tabulated-list-format', ROWS its entries; its padding
is widened where a column's name needs it (see `boxoffice--apart')."
  (setq boxoffice--heading heading)
  (setq header-line-format (boxoffice--header heading))
  (setq tabulated-list-format (boxoffice--apart format))
  (setq tabulated-list-entries rows)
  (tabulated-list-init-header)
  (tabulated-list-print t)
  (setq boxoffice--state 'drawn))

(defun boxoffice--origin (source)
  "Where SOURCE says the figures come from, and when they were fetched."
  (let-alist source
    (format "%s, %s %s" .origin
            (if (equal .origin "fixture") "recorded" "fetched") .fetchedAt)))

(defun boxoffice--trend-face (trend)
  "The face of the change of an entry whose trend is TREND."
  (pcase trend
    ("new" 'boxoffice-rank-new)
    ("up" 'boxoffice-rank-up)
    ("down" 'boxoffice-rank-down)
    (_ 'boxoffice-rank-same)))

(defun boxoffice--box-office-row (entry title-width)
  "The list row of ENTRY, its title cut to TITLE-WIDTH columns."
  (let-alist entry
    (list .movieCode
          (vector (boxoffice--keyed (number-to-string .rank) .rank)
                  ;; New entries sort above the biggest climb.
                  (boxoffice--keyed (propertize .display.rankChange
                                                'face (boxoffice--trend-face
                                                       .trend))
                                    (if (equal .trend "new")
                                        1.0e+INF
                                      .rankChange))
                  (boxoffice--fit .title title-width)
                  (boxoffice--keyed .display.audience .audience.count)
                  (boxoffice--keyed .display.audienceTotal .audience.total)
                  (boxoffice--keyed (format "%.1f%%" .sales.share)
                                    .sales.share)))))

(defun boxoffice--draw-box-office (result error)
  "Draw RESULT, a box office, as the CLI's list; or say ERROR."
  (if error
      (boxoffice--show-error error)
    (let-alist result
      (let ((title-width (boxoffice--column-width
                          "Title"
                          (mapcar (lambda (entry) (alist-get 'title entry))
                                  .entries)
                          40)))
        (boxoffice--draw-list
         (format "%s · %s · %s" .label
                 (if (equal .range.start .range.end)
                     (format "%s (%s)" .range.start
                             (boxoffice--weekday .range.start))
                   (format "%s – %s" .range.start .range.end))
                 (boxoffice--origin .source))
         ;; As the CLI draws it, Rank given one more space for its arrow.
         (vector `("Rank" 4 ,(boxoffice--by-key 0) :right-align t :pad-right 2)
                 `("Chg" 5 ,(boxoffice--by-key 1) :pad-right 2)
                 `("Title" ,title-width t :pad-right 1)
                 `("Audience" 10 ,(boxoffice--by-key 3) :right-align t
                   :pad-right 1)
                 `("Total" 12 ,(boxoffice--by-key 4) :right-align t
                   :pad-right 1)
                 `("Share" 6 ,(boxoffice--by-key 5) :right-align t))
         (mapcar (lambda (entry) (boxoffice--box-office-row entry title-width))
                 .entries))))))

(defun boxoffice--show-progress (progress total)
  "Count PROGRESS of TOTAL in the echo area, without logging it.
Return what the echo area says."
  (let ((message-log-max nil))
    (message "%s" (boxoffice--one-line
                   (format "boxoffice: %s/%s" progress (or total "?"))))))

(defun boxoffice--clear-progress (shown)
  "Clear the echo area if it still says SHOWN, the last progress."
  (when (member (current-message) (list nil shown))
    (let ((message-log-max nil))
      (message nil))))

(defun boxoffice--box-office (method name params details)
  "Ask METHOD with PARAMS into the list buffer NAME; return the buffer.
DETAILS non-nil also fetches every entry's detail and poster, with
progress in the echo area, cleared when the answer comes."
  (boxoffice--open
   name #'boxoffice-list-mode
   (lambda (refresh)
     (let (shown)
       (boxoffice--call-for
        (current-buffer) method
        (append params
                (and details '((include . ["detail" "poster"])))
                (and refresh '((refresh . t))))
        (lambda (result error)
          (when shown
            (boxoffice--clear-progress shown))
          (boxoffice--draw-box-office result error))
        (and details
             (lambda (progress total)
               (setq shown (boxoffice--show-progress progress total)))))))))

;;;###autoload
(defun boxoffice-daily (&optional date details)
  "Show a day's box office, the top 10 of DATE; return its buffer.
DATE is YYYY-MM-DD, YYYYMMDD, yesterday (the default: the worker's
own, offline the latest recorded day), today or today-N, N days
before today in Seoul, the words in any case; anything else is
refused before any call.  DETAILS non-nil (interactively, a prefix argument)
also has the worker fetch every entry's detail and poster, counted
in the echo area, so that the movies then open from its cache.
Called from Lisp, it returns the buffer at once; the answer draws
it when it comes."
  (interactive (list (boxoffice--read-date "Daily box office")
                     current-prefix-arg))
  (let* ((day (boxoffice--date date))
         (buffer (boxoffice--box-office
                  "boxoffice.daily"
                  (format "*boxoffice daily %s*" (or day "yesterday"))
                  (and day `((date . ,day)))
                  details)))
    (when (called-interactively-p 'interactive)
      (pop-to-buffer buffer))
    buffer))

;;;###autoload
(defun boxoffice-weekly (&optional date period details)
  "Show the box office of the PERIOD holding DATE; return its buffer.
PERIOD is week (Monday to Sunday), weekend (Friday to Sunday, the
default) or weekdays (Monday to Thursday).  DATE takes the forms of
`boxoffice-daily'; by default the worker shows the latest finished
period, and the buffer is named for it as latest.  DETAILS non-nil
\(interactively, a prefix argument) also has the worker fetch every
entry's detail and poster, counted in the echo area, as
`boxoffice-daily' does."
  (interactive
   (list (boxoffice--read-date "Weekly box office")
         (completing-read "Period (default weekend): "
                          '("week" "weekend" "weekdays") nil t nil nil
                          "weekend")
         current-prefix-arg))
  (let* ((day (boxoffice--date date))
         (period (if (member period '(nil "")) "weekend" period))
         (buffer (boxoffice--box-office
                  "boxoffice.weekly"
                  (format "*boxoffice weekly %s %s*" period (or day "latest"))
                  `((period . ,period) ,@(and day `((date . ,day))))
                  details)))
    (when (called-interactively-p 'interactive)
      (pop-to-buffer buffer))
    buffer))

(defun boxoffice--draw-search (title result error)
  "Draw RESULT, the movies found for TITLE; or say ERROR."
  (if error
      (boxoffice--show-error error)
    (let-alist result
      (let ((title-width (boxoffice--column-width
                          "Title"
                          (mapcar (lambda (movie) (alist-get 'title movie))
                                  .movies)
                          40))
            (genres-width (boxoffice--column-width
                           "Genres"
                           (mapcar (lambda (movie)
                                     (string-join (alist-get 'genres movie)
                                                  ", "))
                                   .movies)
                           16))
            (directors-width (boxoffice--column-width
                              "Directors"
                              (mapcar (lambda (movie)
                                        (string-join (alist-get 'directors
                                                                movie)
                                                     ", "))
                                      .movies)
                              20)))
        (boxoffice--draw-list
         (format "영화 검색 · %s · %d found, page %d" title .total .page)
         (vector '("Code" 8 t :pad-right 2)
                 `("Title" ,title-width t :pad-right 2)
                 `("Year" 4 ,(boxoffice--by-key 2) :right-align t
                   :pad-right 2)
                 `("Genres" ,genres-width t :pad-right 2)
                 `("Directors" ,directors-width t :pad-right 2)
                 '("English title" 0 t))
         (mapcar
          (lambda (movie)
            (let-alist movie
              (list .movieCode
                    (vector .movieCode
                            (boxoffice--fit .title title-width)
                            (boxoffice--keyed (if .productionYear
                                                  (number-to-string
                                                   .productionYear)
                                                "")
                                              .productionYear)
                            (boxoffice--fit (string-join .genres ", ")
                                            genres-width)
                            (boxoffice--fit (string-join .directors ", ")
                                            directors-width)
                            (or .titleEnglish "")))))
          .movies))))))

;;;###autoload
(defun boxoffice-search (title)
  "Show the movies KOBIS finds for TITLE; return the buffer.
RET on a line opens that movie.  A blank TITLE is refused before
any call."
  (interactive (list (read-string "Search movies by title: ")))
  (let ((title (string-trim (or title ""))))
    (when (string-empty-p title)
      (user-error "Give a title to search for, such as 드림"))
    (let ((buffer (boxoffice--open
                   (format "*boxoffice search %s*" title) #'boxoffice-list-mode
                   (lambda (_refresh)
                     (boxoffice--call-for
                      (current-buffer) "movie.search" `((title . ,title))
                      (lambda (result error)
                        (boxoffice--draw-search title result error)))))))
      (when (called-interactively-p 'interactive)
        (pop-to-buffer buffer))
      buffer)))

;;;; Details: a movie, the worker

(defvar boxoffice-detail-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map "q" #'boxoffice-quit)
    map)
  "Keys of `boxoffice-detail-mode' besides those of `special-mode'.")

(define-derived-mode boxoffice-detail-mode special-mode "Box office movie"
  "A movie's detail: titles, people, dates and its poster.
\\<boxoffice-detail-mode-map>\\[revert-buffer] asks again bypassing the cache, \
\\[boxoffice-quit] closes."
  (boxoffice--setup-buffer))

(defvar boxoffice-status-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map "q" #'boxoffice-quit)
    map)
  "Keys of `boxoffice-status-mode' besides those of `special-mode'.")

(define-derived-mode boxoffice-status-mode special-mode "Box office worker"
  "The worker's status: version, mode, quota and cache.
\\<boxoffice-status-mode-map>\\[revert-buffer] asks again, \
\\[boxoffice-quit] closes."
  (boxoffice--setup-buffer))

(defvar-local boxoffice--movie nil
  "The movie.detail result drawn in this buffer.")

(defvar-local boxoffice--poster nil
  "What the Poster line says, or nil while it is being asked.")

(defun boxoffice--draw-fields (title english fields)
  "Draw TITLE, ENGLISH, a rule and FIELDS as the CLI's detail screens.
FIELDS is a list of (LABEL VALUE): the label in a column of its own,
the value wrapped after it; a field without a value is left out."
  (setq header-line-format nil)
  (boxoffice--redraw
   (lambda (width)
     (dolist (line (boxoffice--wrap title width t))
       (insert (propertize line 'face 'bold) "\n"))
     (when (and english (not (string-empty-p english)))
       (dolist (line (boxoffice--wrap english width t))
         (insert line "\n")))
     (insert (propertize (make-string (min width 60) ?─) 'face 'shadow) "\n")
     (pcase-dolist (`(,label ,value) fields)
       (when (and value (not (string-empty-p value)))
         (boxoffice--insert-field label value 11 width))))
   'drawn))

(defun boxoffice--with-roles (people)
  "PEOPLE (actors or companies) as \"name (role)\", comma-separated."
  (mapconcat (lambda (person)
               (let-alist person
                 (if (and .role (not (string-empty-p .role)))
                     (format "%s (%s)" .name .role)
                   .name)))
             people ", "))

(defun boxoffice--draw-movie ()
  "Draw the movie of this buffer with what is known of its poster."
  (let-alist boxoffice--movie
    (boxoffice--draw-fields
     .title .titleEnglish
     `(("Director" ,(mapconcat (lambda (director) (alist-get 'name director))
                               .directors ", "))
       ("Year" ,(and .productionYear (number-to-string .productionYear)))
       ("Opening" ,.openDate)
       ("Runtime" ,(and .runtimeMinutes (format "%d min" .runtimeMinutes)))
       ("Grade" ,.watchGrade)
       ("Nations" ,(string-join .nations ", "))
       ("Genres" ,(string-join .genres ", "))
       ;; The CLI's screen shows eight actors, as the recordings keep.
       ("Actors" ,(boxoffice--with-roles (cl-subseq .actors 0
                                                    (min 8 (length .actors)))))
       ("Companies" ,(boxoffice--with-roles .companies))
       ("Poster" ,(or boxoffice--poster "(asking for the poster…)"))
       ("Code" ,.movieCode)
       ("Source" ,(boxoffice--origin .source))))))

(defun boxoffice--poster-answered (result error)
  "Put the poster in RESULT on the Poster line; or say ERROR there.
An error leaves the detail standing: it is said in parentheses on
the Poster line, and in the echo area as a warning."
  (setq boxoffice--poster
        (cond (error
               (let ((text (format "%s" (or (alist-get 'message error)
                                            error))))
                 (boxoffice--say 'warning "%s" text)
                 (format "(%s)" (boxoffice--one-line text))))
              ((not (eq (alist-get 'found result) t)) "(not found)")
              ((alist-get 'file result)
               (alist-get 'path (alist-get 'file result)))
              (t (alist-get 'url (alist-get 'image result)))))
  (boxoffice--draw-movie))

(defun boxoffice--movie-answered (result error refresh)
  "Draw RESULT, a movie.detail, then ask for its poster; or say ERROR.
The poster is downloaded into the worker's cache and shown as its
path; when the detail comes from the recordings (offline), there is
nothing to download from and the recorded image address is shown.
REFRESH is passed on to the poster."
  (if error
      (boxoffice--show-error error)
    (setq boxoffice--movie result)
    (setq boxoffice--poster nil)
    (boxoffice--draw-movie)
    (boxoffice--call-for
     (current-buffer) "movie.poster"
     `((movieCode . ,(alist-get 'movieCode result))
       ,@(unless (equal (alist-get 'origin (alist-get 'source result))
                        "fixture")
           '((download . t)))
       ,@(and refresh '((refresh . t))))
     #'boxoffice--poster-answered)))

;;;###autoload
(defun boxoffice-movie (code)
  "Show the detail of the movie whose KOBIS code is CODE; return the buffer.
CODE is letters and digits, such as 20124079; anything else is
refused before any call."
  (interactive (list (read-string "KOBIS movie code: ")))
  (setq code (string-trim (or code "")))
  (cond ((string-empty-p code)
         (user-error "Give a KOBIS movie code, such as 20124079"))
        ((not (string-match-p "\\`[A-Za-z0-9]+\\'" code))
         (user-error "\"%s\" is not a KOBIS movie code: use its letters \
and digits, such as 20124079" code)))
  (let ((buffer (boxoffice--open
                 (format "*boxoffice movie %s*" code) #'boxoffice-detail-mode
                 (lambda (refresh)
                   (boxoffice--call-for
                    (current-buffer) "movie.detail"
                    `((movieCode . ,code) ,@(and refresh '((refresh . t))))
                    (lambda (result error)
                      (boxoffice--movie-answered result error refresh)))))))
    (when (called-interactively-p 'interactive)
      (pop-to-buffer buffer))
    buffer))

(defun boxoffice--status-answered (result error)
  "Draw RESULT, the worker's status, as the CLI's status screen; or ERROR.
As the CLI says it, with the process, the requests and the binary."
  (if error
      (boxoffice--show-error error)
    (setq header-line-format nil)
    (let-alist result
      (let ((known (lambda (value) (if value (format "%s" value) "?"))))
        (boxoffice--redraw
         (lambda (_width)
           (insert (propertize (format "boxoffice-worker %s" .version)
                               'face 'bold)
                   (if .commit (format " (%s)" .commit) "")
                   " · " .mode "\n")
           (pcase-dolist
               (`(,label ,value)
                `(("process" ,(format "pid %d, up %.1f s"
                                      .pid .uptimeSeconds))
                  ("KOBIS quota"
                   ,(if .quota
                        (format "%s of %s used, %s left; resets %s"
                                (funcall known .quota.used)
                                (funcall known .quota.limit)
                                (funcall known .quota.remaining)
                                (funcall known .quota.resetsAt))
                      "none offline (set KOBIS_API_KEY to go live)"))
                  ("cache" ,(if .cache.path
                                (format "%s, %s hits, %s misses" .cache.path
                                        (funcall known .cache.hits)
                                        (funcall known .cache.misses))
                              "none"))
                  ("store" ,(and .store
                                 (format "%s %s (%s)"
                                         (funcall known .store.kind)
                                         (funcall known .store.location)
                                         (if (eq .store.connected t)
                                             "connected"
                                           "not connected"))))
                  ("requests"
                   ,(format "%s answered, %s failed, %s cancelled, \
%s in flight"
                            (funcall known .requests.succeeded)
                            (funcall known .requests.failed)
                            (funcall known .requests.cancelled)
                            (funcall known .requests.inFlight)))
                  ("binary" ,(and (processp boxoffice--process)
                                  (car (process-command
                                        boxoffice--process))))))
             ;; Whole lines: the status is paths and figures to copy, as
             ;; the Neovim plugin draws it, never wrapped.
             (when value
               (insert (propertize (format "%-15s" label) 'face 'shadow)
                       value "\n"))))
         'drawn)))))

;;;###autoload
(defun boxoffice-status ()
  "Show the worker's status: version, mode, quota left, cache."
  (interactive)
  (let ((buffer (boxoffice--open
                 "*boxoffice status*" #'boxoffice-status-mode
                 (lambda (_refresh)
                   (boxoffice--call-for (current-buffer) "worker.status" nil
                                        #'boxoffice--status-answered)))))
    (when (called-interactively-p 'interactive)
      (pop-to-buffer buffer))
    buffer))

(provide 'boxoffice)
;;; boxoffice.el ends here
