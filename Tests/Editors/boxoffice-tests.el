;;; boxoffice-tests.el --- ERT tests of boxoffice.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by Tests/Editors/test_emacs.py, which starts the fake upstream and
;; gives the environment:
;;
;;   BOXOFFICE_WORKER=<the worker binary> \
;;   BOXOFFICE_TEST_UPSTREAM=<the fake upstream's base URL> \
;;   emacs --batch -Q -L editors/emacs -l Tests/Editors/boxoffice-tests.el \
;;     -f ert-run-tests-batch-and-exit
;;
;; Every test starts from no worker and no boxoffice buffer, and leaves
;; none.  Nothing here sleeps: a test waits for a state with
;; `accept-process-output', up to a deadline.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'url)
(require 'package)
(require 'boxoffice)

(defvar url-http-end-of-headers)

(defconst boxoffice-test--root
  (expand-file-name "../.." (file-name-directory
                             (or load-file-name buffer-file-name)))
  "The repository's root.")

(defconst boxoffice-test--offline
  '("KOBIS_API_KEY=" "KAKAO_REST_API_KEY=" "BOXOFFICE_TODAY=2026-11-21")
  "The worker's environment offline: no key, a fixed today.")

(defun boxoffice-test--base ()
  "The fake upstream's base URL; the test is skipped without one."
  (or (getenv "BOXOFFICE_TEST_UPSTREAM")
      (ert-skip "BOXOFFICE_TEST_UPSTREAM is not set")))

(defun boxoffice-test--live ()
  "The worker's environment against the fake upstream."
  (let ((base (boxoffice-test--base)))
    (list "KOBIS_API_KEY=test-kobis-key" "KAKAO_REST_API_KEY=test-kakao-key"
          (concat "KOBIS_BASE_URL=" base "/kobis")
          (concat "KAKAO_BASE_URL=" base "/kakao")
          "BOXOFFICE_TODAY=2026-11-21"
          ;; The fake upstream serves its images from loopback.
          "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS=1")))

(defvar boxoffice-test--messages nil
  "The echo area messages of the running test, newest first.")

(defun boxoffice-test--record-message (message &rest args)
  "Call MESSAGE with ARGS and keep what it says; :cleared for (message nil)."
  (let ((text (apply message args)))
    (cond (text (push text boxoffice-test--messages))
          ((null (car args)) (push :cleared boxoffice-test--messages)))
    text))

(advice-add 'message :around #'boxoffice-test--record-message)

(defun boxoffice-test--said (regexp)
  "The first message of the running test matching REGEXP, or nil."
  (cl-find-if (lambda (text) (and (stringp text) (string-match-p regexp text)))
              (reverse boxoffice-test--messages)))

(defun boxoffice-test--reset ()
  "Stop the worker and kill every boxoffice buffer."
  (boxoffice-stop-worker)
  (dolist (buffer (buffer-list))
    (when (string-prefix-p "*boxoffice" (buffer-name buffer))
      (kill-buffer buffer))))

(defmacro boxoffice-test--with (environment &rest body)
  "Run BODY with a worker to start in ENVIRONMENT, from a clean state."
  (declare (indent 1) (debug t))
  `(progn
     (boxoffice-test--reset)
     (let ((boxoffice-worker-environment ,environment)
           (boxoffice-binary nil)
           (boxoffice-offline nil)
           (boxoffice-cache-directory nil)
           (boxoffice-worker-arguments nil)
           (boxoffice-test--messages nil))
       (unwind-protect (progn ,@body)
         (boxoffice-test--reset)))))

(defun boxoffice-test--wait (what predicate &optional seconds)
  "Wait until PREDICATE holds, up to SECONDS (15); fail naming WHAT."
  (let ((deadline (+ (float-time) (or seconds 15))))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall predicate)
        (ert-fail (list "timed out waiting for" what)))))

(defun boxoffice-test--wait-drawn (buffer &optional seconds)
  "Wait until BUFFER is no longer waiting for an answer, up to SECONDS."
  (boxoffice-test--wait (buffer-name buffer)
                        (lambda ()
                          (not (eq (buffer-local-value 'boxoffice--state buffer)
                                   'waiting)))
                        seconds))

(defun boxoffice-test--ask (method &optional params)
  "Ask the worker METHOD with PARAMS and wait for its result."
  (let (answer)
    (boxoffice--request method params
                        (lambda (result error) (setq answer (list result error))))
    (boxoffice-test--wait method (lambda () answer))
    (should-not (cadr answer))
    (car answer)))

(defun boxoffice-test--upstream (path)
  "GET PATH of the fake upstream and return its JSON body as an alist."
  (let ((url-proxy-services nil)
        (url-show-status nil))
    (with-current-buffer (url-retrieve-synchronously
                          (concat (boxoffice-test--base) path) t t 10)
      (goto-char url-http-end-of-headers)
      (prog1 (json-parse-buffer :object-type 'alist)
        (kill-buffer)))))

(defun boxoffice-test--kobis-calls ()
  "How many KOBIS calls the fake upstream has had."
  (alist-get 'kobis (boxoffice-test--upstream "/__requests")))

(defun boxoffice-test--column-start (column)
  "Where COLUMN starts on the current line, or nil."
  (let ((position (line-beginning-position)))
    (while (and position
                (not (equal (get-text-property position 'tabulated-list-column-name)
                            column)))
      (setq position (next-single-property-change
                      position 'tabulated-list-column-name nil (line-end-position)))
      (when (>= position (line-end-position))
        (setq position nil)))
    position))

(defun boxoffice-test--cell (column)
  "The text of COLUMN on the current line, and where it starts."
  (let* ((start (boxoffice-test--column-start column))
         (end (next-single-property-change start 'tabulated-list-column-name
                                           nil (line-end-position))))
    (list (string-trim (buffer-substring-no-properties start end)) start)))

(defun boxoffice-test--rows ()
  "Each row of the current list: (RANK CHANGE TITLE CHANGE-FACE)."
  (save-excursion
    (goto-char (point-min))
    (let (rows)
      (while (not (eobp))
        (when (tabulated-list-get-id)
          (pcase-let ((`(,change ,start) (boxoffice-test--cell "Chg")))
            (push (list (car (boxoffice-test--cell "Rank"))
                        change
                        (car (boxoffice-test--cell "Title"))
                        (get-text-property start 'face))
                  rows)))
        (forward-line 1))
      (nreverse rows))))

(defun boxoffice-test--golden-rows (file)
  "Each row of the CLI's golden list screen FILE: (RANK CHANGE TITLE)."
  (with-temp-buffer
    (insert-file-contents
     (expand-file-name (concat "Tests/CLI/golden/" file) boxoffice-test--root))
    (let (rows)
      (while (re-search-forward
              "^ +\\([0-9]+\\)  \\([^ ]+\\) +\\(.+?\\) +[0-9,]+ +[0-9,]+$" nil t)
        (push (list (match-string 1) (match-string 2) (match-string 3)) rows))
      (nreverse rows))))

(defun boxoffice-test--field (label)
  "The value of field LABEL in the current detail, its lines joined.
A line broken after \",\" is joined with a space, one broken inside
a word (a path, an address) with nothing."
  (save-excursion
    (goto-char (point-min))
    (when (re-search-forward (format "^%s +\\(.*\\)$" (regexp-quote label)) nil t)
      (let ((value (match-string-no-properties 1))
            (indent (- (match-beginning 1) (match-beginning 0))))
        (forward-line 1)
        (while (looking-at (format "^ \\{%d\\}\\([^ ].*\\)$" indent))
          (setq value (concat value (if (string-suffix-p "," value) " " "")
                              (match-string-no-properties 1)))
          (forward-line 1))
        value))))

(defun boxoffice-test--joined ()
  "The current buffer's text, its lines joined by spaces, as one line."
  (string-trim (replace-regexp-in-string "\n" " " (buffer-string))))

(defun boxoffice-test--lines-fit (buffer)
  "Check that no line of BUFFER is wider than its window shows unbroken.
The poster's path or address is kept whole, to be copied."
  (with-current-buffer buffer
    (let ((room (1- (window-width (get-buffer-window buffer))))
          wide)
      (should (= room (window-max-chars-per-line (get-buffer-window buffer))))
      (save-excursion
        (goto-char (point-min))
        (while (not (eobp))
          (let ((line (buffer-substring (point) (line-end-position))))
            (when (and (> (string-width line) room)
                       (not (string-match-p "\\`Poster +[/h]" line)))
              (push line wide)))
          (forward-line 1)))
      (should-not wide))))

;;;; a. The list, offline

(ert-deftest boxoffice-test-daily-offline ()
  "A day's list: ten rows in rank order as the CLI draws them, faces on the change."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2023-04-26")))
      (should (equal (buffer-name buffer) "*boxoffice daily 2023-04-26*"))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (should (eq major-mode 'boxoffice-list-mode))
        (should (eq boxoffice--state 'drawn))
        (should (string-match-p
                 "\\`일별 박스오피스 · 2023-04-26 (Wed) · fixture, recorded "
                 header-line-format))
        (let ((rows (boxoffice-test--rows))
              (golden (boxoffice-test--golden-rows "list-60x30.txt")))
          (should (= (length golden) 10))
          (should (equal (mapcar (lambda (row) (cl-subseq row 0 3)) rows) golden))
          (should (equal (nth 2 (car rows)) "드림"))
          (should (equal (mapcar #'cadr (cl-subseq rows 0 3)) '("신작" "▲12" "▼2")))
          (should (equal (mapcar (lambda (row) (nth 3 row)) rows)
                         '(boxoffice-rank-new boxoffice-rank-up boxoffice-rank-down
                           boxoffice-rank-down boxoffice-rank-up boxoffice-rank-down
                           boxoffice-rank-down boxoffice-rank-new boxoffice-rank-down
                           boxoffice-rank-new))))
        (goto-char (point-min))
        (should (looking-at " *Rank +Chg +Title +Audience +Total +Share"))
        (should (search-forward "93,416      101,276  31.6%" nil t))))))

(ert-deftest boxoffice-test-sorts-numerically ()
  "Sorting the Audience and Total columns compares numbers, not text."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2023-04-26")))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (setq tabulated-list-sort-key '("Total" . t))
        (tabulated-list-print)
        ;; As text, "99,643" would come before "4,970,529".
        (should (equal (mapcar #'cl-third (cl-subseq (boxoffice-test--rows) 0 3))
                       '("스즈메의 문단속" "더 퍼스트 슬램덩크" "존 윅 4")))
        (setq tabulated-list-sort-key '("Rank" . nil))
        (tabulated-list-print)
        (should (equal (mapcar #'car (boxoffice-test--rows))
                       (mapcar #'number-to-string (number-sequence 1 10))))))))

;;;; b. RET opens the movie

(ert-deftest boxoffice-test-ret-opens-detail ()
  "RET on the first row opens that movie's detail, then its poster."
  (boxoffice-test--with boxoffice-test--offline
    (let ((list (boxoffice-daily "2023-04-26")))
      (boxoffice-test--wait-drawn list)
      (with-current-buffer list
        (goto-char (point-min))
        (while (not (tabulated-list-get-id))
          (forward-line 1))
        (call-interactively (key-binding (kbd "RET"))))
      (let ((movie (get-buffer "*boxoffice movie 20198482*")))
        (should movie)
        (boxoffice-test--wait-drawn movie)
        (with-current-buffer movie
          (should (eq major-mode 'boxoffice-detail-mode))
          (should (string-prefix-p "드림\nDream\n" (buffer-string)))
          (should (string-match-p "^Director   이병헌$" (buffer-string)))
          (should (string-match-p "^Actors     박서준 (윤홍대), 이지은 (이소민)"
                                  (buffer-string)))
          (should (string-match-p
                   "^Code       20198482\nSource     fixture, recorded 2026-11-20T00:00:00Z\n\\'"
                   (buffer-string)))
          ;; Offline, 드림's recorded poster search found nothing.
          (boxoffice-test--wait "the poster line"
                                (lambda () boxoffice--poster))
          (should (string-match-p "^Poster     (not found)$" (buffer-string)))
          (should-not (buffer-modified-p)))))))

(ert-deftest boxoffice-test-detail-poster-address-offline ()
  "Offline the poster line shows the recorded image address."
  (boxoffice-test--with boxoffice-test--offline
    (let ((movie (boxoffice-movie "20124079")))
      (boxoffice-test--wait "the poster line"
                            (lambda () (buffer-local-value 'boxoffice--poster movie)))
      (with-current-buffer movie
        (should (equal (boxoffice-test--field "Poster")
                       "https://t1.daumcdn.net/news/201901/03/nocut/20190103153601230nltn.jpg"))
        (should (string-match-p "^Actors     이병헌 (광해/하선), 류승룡 (허균)"
                                (buffer-string)))))))

(ert-deftest boxoffice-test-detail-poster-downloaded-live ()
  "Live, the poster is downloaded into the cache and shown as its path."
  (boxoffice-test--with (boxoffice-test--live)
    (let ((movie (boxoffice-movie "20124079")))
      (boxoffice-test--wait "the poster line"
                            (lambda () (buffer-local-value 'boxoffice--poster movie)))
      (with-current-buffer movie
        (let ((poster (boxoffice-test--field "Poster")))
          (should (string-match-p "\\`/.*/posters/[0-9a-f]\\{64\\}\\.jpg\\'" poster))
          (should (file-exists-p poster)))
        (should (string-match-p "^Source     kobis, fetched " (buffer-string)))))))

(ert-deftest boxoffice-test-detail-fits-the-window ()
  "The detail's lines fit the window less its continuation column."
  (boxoffice-test--with boxoffice-test--offline
    (let ((movie (boxoffice-movie "20124079")))
      (switch-to-buffer movie)
      (delete-other-windows)
      (boxoffice-test--wait "the poster line"
                            (lambda () (buffer-local-value 'boxoffice--poster movie)))
      (boxoffice-test--lines-fit movie)
      (with-current-buffer movie
        ;; Broken after ", " as the CLI breaks it, nothing lost.
        (should (string-match-p "^Actors     이병헌 (광해/하선), .*,$" (buffer-string)))
        (should (equal (boxoffice-test--field "Actors")
                       (concat "이병헌 (광해/하선), 류승룡 (허균), 한효주 (중전), "
                               "장광 (조내관), 김인권 (도부장), 심은경 (사월이), "
                               "김명곤 (박충수), 서진원 (도총관)")))
        (should (equal (boxoffice-test--field "Poster")
                       "https://t1.daumcdn.net/news/201901/03/nocut/20190103153601230nltn.jpg")))
      ;; Half the width: drawn again by g, it fits again.
      (split-window-right)
      (with-current-buffer movie
        (revert-buffer))
      (boxoffice-test--wait-drawn movie)
      (boxoffice-test--wait "the poster line"
                            (lambda () (buffer-local-value 'boxoffice--poster movie)))
      (boxoffice-test--lines-fit movie)
      (with-current-buffer movie
        (goto-char (point-min))
        (forward-line 2)
        (should (looking-at (format "─\\{%d\\}$"
                                    (min 60 (1- (window-width (get-buffer-window movie)))))))
        (should (equal (boxoffice-test--field "Poster")
                       "https://t1.daumcdn.net/news/201901/03/nocut/20190103153601230nltn.jpg")))
      (delete-other-windows))))

(ert-deftest boxoffice-test-detail-poster-placeholders ()
  "The Poster line while asked, when not found, and on an error (a warning)."
  (with-temp-buffer
    (boxoffice-detail-mode)
    (let (poster-callback)
      (cl-letf (((symbol-function 'boxoffice--call-for)
                 (lambda (_buffer method _params callback &optional _progress)
                   (should (equal method "movie.poster"))
                   (setq poster-callback callback)
                   1)))
        (boxoffice--movie-answered
         '((movieCode . "20124079") (title . "광해, 왕이 된 남자")
           (titleEnglish . "Masquerade") (directors ((name . "추창민")))
           (source (origin . "kobis") (fetchedAt . "2026-11-21T03:04:05Z")))
         nil nil))
      (should (string-match-p "^Poster     (asking for the poster…)$" (buffer-string)))
      (should (string-match-p
               "^Code       20124079\nSource     kobis, fetched 2026-11-21T03:04:05Z\n\\'"
               (buffer-string)))
      (should-not (buffer-modified-p))
      (funcall poster-callback '((found . :false)) nil)
      (should (string-match-p "^Poster     (not found)$" (buffer-string)))
      (let ((boxoffice-test--messages nil))
        (funcall poster-callback nil '((code . -31003) (message . "Kakao is down")))
        (should (string-match-p "^Poster     (Kakao is down)$" (buffer-string)))
        (should (string-match-p "^Director   추창민$" (buffer-string)))
        (should (eq boxoffice--state 'drawn))
        (let ((said (boxoffice-test--said "\\`boxoffice: Kakao is down\\'")))
          (should said)
          (should (eq (get-text-property 0 'face said) 'warning))))
      (should-not (buffer-modified-p)))))

;;;; c. Errors

(ert-deftest boxoffice-test-future-date-error ()
  "A future date is the method's error, in the echo area and the buffer."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2099-01-01")))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (should (eq boxoffice--state 'failed))
        (should (string-match-p "\\`boxoffice: .*after the latest allowed date"
                                (buffer-string))))
      (should (boxoffice-test--said
               "\\`boxoffice: .*after the latest allowed date 2026-11-20"))
      (should (eq (get-text-property 0 'face (boxoffice-test--said "latest allowed"))
                  'error))
      (should-not (buffer-modified-p buffer)))))

(ert-deftest boxoffice-test-error-wrapped ()
  "An error is word-wrapped to the window in its buffer, nothing cut off."
  (boxoffice-test--with boxoffice-test--offline
    (dolist (buffer (list (boxoffice-movie "abc") (boxoffice-search "드림스")))
      (switch-to-buffer buffer)
      (delete-other-windows)
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (should (eq boxoffice--state 'failed))
        (should-not (buffer-modified-p))
        (should (> (count-lines (point-min) (point-max)) 1))
        ;; The lines joined again are what the echo area said.
        (should (string-prefix-p "boxoffice: offline mode: " (buffer-string)))
        (should (member (boxoffice-test--joined) boxoffice-test--messages)))
      (boxoffice-test--lines-fit buffer))))

(ert-deftest boxoffice-test-quota-exhausted ()
  "An exhausted KOBIS budget is said as the method says it; the day drawn stays."
  (boxoffice-test--with (boxoffice-test--live)
    (let ((boxoffice-worker-arguments '("--kobis-daily-limit" "1")))
      (let ((first (boxoffice-daily "2022-08-01")))
        (boxoffice-test--wait-drawn first)
        (let ((second (boxoffice-daily "2022-08-02")))
          (boxoffice-test--wait-drawn second)
          (should (boxoffice-test--said
                   "boxoffice: .*KOBIS budget of 1 calls for 2026-11-21 (KST) is spent"))
          (should (string-match-p "budget of 1 calls"
                                  (with-current-buffer second (boxoffice-test--joined))))
          (should (string-match-p "2022-08-01"
                                  (with-current-buffer first
                                    (format "%s" header-line-format)))))))))

(defun boxoffice-test--docs-missing-binary ()
  "The missing binary's text as docs/editors.md shows it, for this version."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "docs/editors.md" boxoffice-test--root))
    (should (re-search-forward "^  boxoffice-worker was not found" nil t))
    (let ((lines (split-string (buffer-substring (line-beginning-position)
                                                 (progn (forward-line 4) (point)))
                               "\n" t)))
      (should (= (length lines) 4))
      (replace-regexp-in-string
       "0\\.2\\.0" boxoffice-version
       (mapconcat (lambda (line) (substring line 2)) lines "\n") t t))))

(ert-deftest boxoffice-test-missing-binary ()
  "Without a worker, a command says how to install one, as docs/editors.md does."
  (boxoffice-test--with boxoffice-test--offline
    (let ((process-environment (cons "BOXOFFICE_WORKER" process-environment))
          (exec-path (list (make-temp-name "/nonexistent/")))
          (boxoffice--install-places '("/nonexistent/boxoffice-worker")))
      (should (equal (should-error (boxoffice-daily "2023-04-26") :type 'user-error)
                     (list 'user-error (boxoffice-test--docs-missing-binary))))
      (should (string-prefix-p
               "boxoffice-worker was not found ($BOXOFFICE_WORKER, PATH, ~/.local/bin, "
               (boxoffice-test--docs-missing-binary)))
      (should-not (get-buffer "*boxoffice daily 2023-04-26*")))))

(ert-deftest boxoffice-test-binary-named-not-executable ()
  "A binary named but not executable is said by its name and where it was named."
  (boxoffice-test--with boxoffice-test--offline
    (let ((lines (mapconcat #'identity
                            (cdr (split-string (boxoffice-test--docs-missing-binary)
                                               "\n"))
                            "\n"))
          (directory (make-temp-file "boxoffice-not-a-binary" t)))
      (unwind-protect
          (progn
            (let ((boxoffice-binary "/nonexistent/boxoffice-worker"))
              (should (equal (should-error (boxoffice-daily "2023-04-26")
                                           :type 'user-error)
                             (list 'user-error
                                   (concat "boxoffice-binary names "
                                           "/nonexistent/boxoffice-worker, which is "
                                           "not an executable file; set it to the "
                                           "worker, or install the worker with one of:\n"
                                           lines)))))
            ;; Named by the variable, it is not skipped for the one on PATH.
            (let ((process-environment (cons (concat "BOXOFFICE_WORKER=" directory)
                                             process-environment))
                  (exec-path (cons (file-name-directory (getenv "BOXOFFICE_WORKER"))
                                   exec-path)))
              (should (executable-find "boxoffice-worker"))
              (should (string-prefix-p
                       (format "BOXOFFICE_WORKER names %s, which is not an executable file; "
                               directory)
                       (cadr (should-error (boxoffice-status) :type 'user-error))))))
        (delete-directory directory t))
      (should-not boxoffice--process)
      (should-not (cl-find-if (lambda (buffer)
                                (string-prefix-p "*boxoffice " (buffer-name buffer)))
                              (buffer-list))))))

(ert-deftest boxoffice-test-dates ()
  "Dates take the CLI's forms in any case; today-N counts from BOXOFFICE_TODAY."
  (let ((boxoffice-worker-environment '("BOXOFFICE_TODAY=2026-03-01")))
    (should (equal (boxoffice--date "2023-04-26") "2023-04-26"))
    (should (equal (boxoffice--date "20230426") "2023-04-26"))
    (should-not (boxoffice--date "yesterday"))
    (should-not (boxoffice--date "Yesterday"))
    (should-not (boxoffice--date "YESTERDAY"))
    (should-not (boxoffice--date ""))
    (should-not (boxoffice--date nil))
    (should (equal (boxoffice--date "today") "2026-03-01"))
    (should (equal (boxoffice--date "TODAY") "2026-03-01"))
    (should (equal (boxoffice--date "Today-1") "2026-02-28"))
    (should (equal (boxoffice--date "today-3") "2026-02-26"))
    (should (equal (boxoffice--date "TODAY-366") "2025-02-28"))
    (dolist (text '("tomorrow" "today+1" "2023-4-26" "202304261" "today-"))
      (should (equal (should-error (boxoffice--date text) :type 'user-error)
                     `(user-error ,(format "\"%s\" is not a date: use YYYY-MM-DD, \
YYYYMMDD, yesterday or today-N" text)))))))

(ert-deftest boxoffice-test-bad-date-before-any-call ()
  "A date that is not one is refused before any call, with no buffer made."
  (boxoffice-test--with boxoffice-test--offline
    (let ((before boxoffice--last-id))
      (should (equal (should-error (boxoffice-daily "2023/04/26") :type 'user-error)
                     '(user-error "\"2023/04/26\" is not a date: use YYYY-MM-DD, \
YYYYMMDD, yesterday or today-N")))
      (should-error (boxoffice-weekly "next week" "week") :type 'user-error)
      (should-not boxoffice--process)
      (should (= boxoffice--last-id before)))
    (should-not (cl-find-if (lambda (buffer)
                              (string-prefix-p "*boxoffice " (buffer-name buffer)))
                            (buffer-list)))))

;;;; d. Many calls at once

(ert-deftest boxoffice-test-fifty-at-once ()
  "Fifty commands at once are each answered into their own buffer."
  (boxoffice-test--with (boxoffice-test--live)
    (let* ((days (mapcar (lambda (offset)
                           (format-time-string
                            "%F" (time-add (boxoffice--noon "2023-03-01")
                                           (* offset 86400))
                            0))
                         (number-sequence 0 49)))
           (buffers (mapcar #'boxoffice-daily days)))
      (should (= (length (delete-dups (copy-sequence buffers))) 50))
      (dolist (buffer buffers)
        (boxoffice-test--wait-drawn buffer 60))
      (cl-loop for day in days
               for buffer in buffers
               do (with-current-buffer buffer
                    (should (equal (buffer-name) (format "*boxoffice daily %s*" day)))
                    (should (eq boxoffice--state 'drawn))
                    (should (string-match-p
                             (format "\\`일별 박스오피스 · %s ([A-Z][a-z][a-z]) · kobis, fetched "
                                     (regexp-quote day))
                             header-line-format))
                    (should (= (length tabulated-list-entries) 10)))))))

;;;; e. Lines cut anywhere

(ert-deftest boxoffice-test-filter-pieces ()
  "A line cut inside its Hangul text, and several lines in one piece."
  (boxoffice-test--with boxoffice-test--offline
    (let* ((process (boxoffice--worker))
           answers ids)
      ;; The requests are made but not written: the test plays the worker.
      (cl-letf (((symbol-function 'process-send-string) #'ignore))
        (dolist (n '(0 1 2 3))
          (push (boxoffice--request "ping" nil
                                    (lambda (result error)
                                      (push (list n result error) answers)))
                ids)))
      (setq ids (nreverse ids))
      (let* ((line (format "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"title\":\"슈퍼 마리오 브라더스\"}}\n"
                           (nth 0 ids)))
             (cut (string-match "리오" line)))
        (boxoffice--filter process (substring line 0 cut))
        (should-not answers)
        (boxoffice--filter process (substring line cut (1+ cut)))
        (should-not answers)
        (boxoffice--filter process (substring line (1+ cut)))
        (should (equal answers '((0 ((title . "슈퍼 마리오 브라더스")) nil)))))
      (setq answers nil)
      (boxoffice--filter
       process
       (format (concat "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"title\":\"드림\"}}\n"
                       "{\"jsonrpc\":\"2.0\",\"id\":%d,\"error\":{\"code\":-31004,\"message\":\"없음\"}}\n"
                       "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"ti")
               (nth 1 ids) (nth 2 ids) (nth 3 ids)))
      (should (equal (reverse answers)
                     '((1 ((title . "드림")) nil)
                       (2 nil ((code . -31004) (message . "없음"))))))
      (boxoffice--filter process "tle\":\"무명\"}}\n")
      (should (equal (car answers) '(3 ((title . "무명")) nil)))
      (should (= (hash-table-count boxoffice--calls) 0)))))

;;;; f. Closing a buffer cancels its call

(ert-deftest boxoffice-test-kill-buffer-cancels ()
  "Killing a waiting buffer sends $/cancelRequest and drops the -32800."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--upstream "/__hold?after=0")
    (unwind-protect
        (let* ((before (boxoffice-test--kobis-calls))
               (buffer (boxoffice-daily "2023-02-01")))
          (boxoffice-test--wait "the worker's KOBIS call"
                                (lambda () (> (boxoffice-test--kobis-calls) before)))
          (should (= (hash-table-count boxoffice--calls) 1))
          (setq boxoffice-test--messages nil)
          (kill-buffer buffer)
          (should (= (hash-table-count boxoffice--calls) 0))
          (boxoffice-test--upstream "/__release")
          (boxoffice-test--wait
           "requests.cancelled = 1"
           (lambda ()
             (= 1 (let-alist (boxoffice-test--ask "worker.status")
                    .requests.cancelled))))
          (should-not (boxoffice-test--said "\\`boxoffice: ")))
      (boxoffice-test--upstream "/__release"))))

(ert-deftest boxoffice-test-q-kills-and-cancels ()
  "q kills the buffer, so its call still waiting is cancelled."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--upstream "/__hold?after=0")
    (unwind-protect
        (let* ((before (boxoffice-test--kobis-calls))
               (buffer (boxoffice-daily "2023-02-07")))
          (switch-to-buffer buffer)
          (boxoffice-test--wait "the worker's KOBIS call"
                                (lambda () (> (boxoffice-test--kobis-calls) before)))
          (should (= (hash-table-count boxoffice--calls) 1))
          (should (eq (key-binding "q") #'boxoffice-quit))
          (call-interactively (key-binding "q"))
          (should-not (buffer-live-p buffer))
          (should (= (hash-table-count boxoffice--calls) 0))
          (boxoffice-test--upstream "/__release")
          (boxoffice-test--wait
           "requests.cancelled = 1"
           (lambda ()
             (= 1 (let-alist (boxoffice-test--ask "worker.status")
                    .requests.cancelled)))))
      (boxoffice-test--upstream "/__release"))))

(ert-deftest boxoffice-test-q-in-every-buffer ()
  "q kills a drawn list, detail or status too, not only hides it."
  (boxoffice-test--with boxoffice-test--offline
    (dolist (buffer (list (boxoffice-daily "2023-04-26") (boxoffice-movie "20124079")
                          (boxoffice-status)))
      (boxoffice-test--wait-drawn buffer)
      (switch-to-buffer buffer)
      (should (eq (key-binding "q") #'boxoffice-quit))
      (call-interactively (key-binding "q"))
      (should-not (buffer-live-p buffer)))))

(ert-deftest boxoffice-test-ret-without-a-movie ()
  "RET on a line without a movie says so."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2023-04-26")))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (goto-char (point-min))
        (should (equal (should-error (call-interactively (key-binding (kbd "RET")))
                                     :type 'user-error)
                       '(user-error "boxoffice: no movie on this line")))))))

;;;; g. Restarted once

(ert-deftest boxoffice-test-restart-in-flight ()
  "A worker killed with a call in flight is replaced and the call resent."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--upstream "/__hold?after=0")
    (unwind-protect
        (let* ((old (process-id (boxoffice--worker)))
               (before (boxoffice-test--kobis-calls))
               (buffer (boxoffice-daily "2023-02-03")))
          (boxoffice-test--wait "the worker's KOBIS call"
                                (lambda () (> (boxoffice-test--kobis-calls) before)))
          (signal-process old 'KILL)
          (boxoffice-test--wait
           "the restart message"
           (lambda ()
             (boxoffice-test--said
              "\\`boxoffice: the worker was killed by signal 9; restarted it and sent 1 call again")))
          (boxoffice-test--upstream "/__release")
          (boxoffice-test--wait-drawn buffer)
          (with-current-buffer buffer
            (should (eq boxoffice--state 'drawn))
            (should (string-match-p "2023-02-03 (Fri)" header-line-format)))
          (let ((new (alist-get 'pid (boxoffice-test--ask "worker.status"))))
            (should (integerp new))
            (should-not (= new old))))
      (boxoffice-test--upstream "/__release"))))

(ert-deftest boxoffice-test-restart-after-idle-kill ()
  "A worker killed while idle is replaced by the next command."
  (boxoffice-test--with boxoffice-test--offline
    (let* ((process (boxoffice--worker))
           (old (process-id process)))
      (signal-process old 'KILL)
      (boxoffice-test--wait "the worker's end" (lambda () (null boxoffice--process)))
      (should (boxoffice-test--said
               "\\`boxoffice: the worker was killed by signal 9; the next command restarts it"))
      (let ((buffer (boxoffice-daily "2023-04-26")))
        (boxoffice-test--wait-drawn buffer)
        (should (eq (buffer-local-value 'boxoffice--state buffer) 'drawn)))
      (should-not (= (alist-get 'pid (boxoffice-test--ask "worker.status")) old)))))

(ert-deftest boxoffice-test-restart-only-once ()
  "A restarted worker that dies before answering is not restarted again."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--upstream "/__hold?after=0")
    (unwind-protect
        (let* ((first (process-id (boxoffice--worker)))
               (before (boxoffice-test--kobis-calls))
               (buffer (boxoffice-daily "2023-02-04"))
               second)
          (boxoffice-test--wait "the first worker's KOBIS call"
                                (lambda () (> (boxoffice-test--kobis-calls) before)))
          (setq before (boxoffice-test--kobis-calls))
          (signal-process first 'KILL)
          (boxoffice-test--wait "the second worker"
                                (lambda ()
                                  (and (process-live-p boxoffice--process)
                                       (/= (process-id boxoffice--process) first))))
          (setq second (process-id boxoffice--process))
          (boxoffice-test--wait "the second worker's KOBIS call"
                                (lambda () (> (boxoffice-test--kobis-calls) before)))
          (signal-process second 'KILL)
          (boxoffice-test--wait-drawn buffer)
          (with-current-buffer buffer
            (should (eq boxoffice--state 'failed))
            (should (string-match-p
                     (concat "\\`boxoffice: the worker was killed by signal 9 after a "
                             "restart, before answering anything; not restarting")
                     (boxoffice-test--joined))))
          (should (boxoffice-test--said "not restarting"))
          (should-not boxoffice--process)
          (boxoffice-test--upstream "/__release")
          ;; The next command starts a worker afresh.
          (let ((again (boxoffice-daily "2023-02-04")))
            (boxoffice-test--wait-drawn again)
            (should (eq (buffer-local-value 'boxoffice--state again) 'drawn))
            (should-not (memq (process-id boxoffice--process) (list first second)))))
      (boxoffice-test--upstream "/__release"))))

;;;; Stopped with Emacs

(ert-deftest boxoffice-test-stopped-with-emacs ()
  "On `kill-emacs-hook' the worker's stdin is closed and it exits by itself."
  (boxoffice-test--with boxoffice-test--offline
    (let ((process (boxoffice--worker)))
      (should (memq #'boxoffice-stop-worker kill-emacs-hook))
      (boxoffice-stop-worker)
      (should-not (process-live-p process))
      (should-not boxoffice--process)
      ;; Exit code 0 after end of input: it was not killed.
      (should (eq (process-status process) 'exit))
      (should (= (process-exit-status process) 0))
      (should-not (boxoffice-test--said "\\`boxoffice: ")))))

(ert-deftest boxoffice-test-stopped-with-calls-waiting ()
  "A worker stopped while calls wait fails them: stopped before it answered."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--upstream "/__hold?after=0")
    (unwind-protect
        (let* ((before (boxoffice-test--kobis-calls))
               (buffer (boxoffice-daily "2023-02-08"))
               (process boxoffice--process))
          (boxoffice-test--wait "the worker's KOBIS call"
                                (lambda () (> (boxoffice-test--kobis-calls) before)))
          (boxoffice-stop-worker)
          ;; Failed by the time the command returns, not at some later sentinel.
          (should-not (process-live-p process))
          (should (= (hash-table-count boxoffice--calls) 0))
          (with-current-buffer buffer
            (should (eq boxoffice--state 'failed))
            (should (equal (boxoffice-test--joined)
                           "boxoffice: the worker was stopped before it answered")))
          (should (boxoffice-test--said
                   "\\`boxoffice: the worker was stopped before it answered\\'"))
          ;; Its sentinel, when it runs, neither restarts it nor says more.
          (setq boxoffice-test--messages nil)
          (accept-process-output nil 0.1)
          (should-not boxoffice--process)
          (should-not boxoffice-test--messages))
      (boxoffice-test--upstream "/__release"))))

;;;; h. Compiles without a warning

(ert-deftest boxoffice-test-byte-compiles-cleanly ()
  "boxoffice.el byte-compiles with every warning an error."
  (let* ((directory (make-temp-file "boxoffice-compile" t))
         (copy (expand-file-name "boxoffice.el" directory)))
    (unwind-protect
        (progn
          (copy-file (locate-library "boxoffice.el" t) copy)
          (let ((byte-compile-error-on-warn t))
            (unless (byte-compile-file copy)
              (ert-fail (with-current-buffer "*Compile-Log*" (buffer-string)))))
          (should (file-exists-p (concat copy "c"))))
      (delete-directory directory t))))

;;;; Package headers

(ert-deftest boxoffice-test-package-headers ()
  "The headers package.el reads, no URL invented, lines within 80 columns."
  (with-temp-buffer
    (insert-file-contents (locate-library "boxoffice.el" t))
    (let ((description (package-buffer-info)))
      (should (equal (package-desc-name description) 'boxoffice))
      (should (equal (package-desc-version description) '(0 2 0)))
      (should (equal (package-desc-summary description) "Korean box office (KOBIS)"))
      (should-not (alist-get :url (package-desc-extras description))))
    (goto-char (point-min))
    (should-not (re-search-forward "^;; URL:" nil t))
    (goto-char (point-min))
    (let (long)
      (while (not (eobp))
        (when (> (string-width (buffer-substring (point) (line-end-position))) 80)
          (push (line-number-at-pos) long))
        (forward-line 1))
      (should-not long))))

;;;; i. Columns in display cells

(defun boxoffice-test--audience-columns ()
  "The display column where Audience starts on each row."
  (save-excursion
    (goto-char (point-min))
    (let (columns)
      (while (not (eobp))
        (let ((start (and (tabulated-list-get-id)
                          (boxoffice-test--column-start "Audience"))))
          (when start
            (push (string-width (buffer-substring-no-properties
                                 (line-beginning-position) start))
                  columns)))
        (forward-line 1))
      columns)))

(ert-deftest boxoffice-test-columns-line-up ()
  "Audience starts at one display column whatever the titles' widths."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2023-04-26")))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        ;; 드림 is 2 characters, 4 columns; 2001 스페이스 오디세이 14, 22.
        (let ((titles (mapcar #'cl-third (boxoffice-test--rows))))
          (should (cl-some (lambda (title) (/= (length title) (string-width title)))
                           titles)))
        (let ((columns (boxoffice-test--audience-columns)))
          (should (= (length columns) 10))
          (should (= (length (delete-dups columns)) 1)))))
    ;; Titles wider than the column's cap are cut with an ellipsis.
    (with-temp-buffer
      (boxoffice-list-mode)
      (boxoffice--draw-box-office
       `((label . "일별 박스오피스") (range (start . "2023-04-26") (end . "2023-04-26"))
         (source (origin . "fixture") (fetchedAt . "2026-11-20T00:00:00Z"))
         (entries
          ,@(cl-loop for title in '("가나다라마바사아자차카타파하가나다라마바사아자차카타파하"
                                     "ABC" "Mixed 한글 and ASCII" "드림")
                     for rank from 1
                     collect `((rank . ,rank) (rankChange . 0) (trend . "same")
                               (movieCode . ,(format "c%d" rank)) (title . ,title)
                               (audience (count . ,rank) (total . ,rank))
                               (sales (share . 1.0))
                               (display (rankChange . "-") (audience . ,(format "%d" rank))
                                        (audienceTotal . ,(format "%d" rank)))))))
       nil)
      (let ((columns (boxoffice-test--audience-columns)))
        (should (= (length columns) 4))
        (should (= (length (delete-dups columns)) 1)))
      ;; 19 syllables and the ellipsis: a 20th would take the width to 41.
      (should (equal (aref (cadr (car tabulated-list-entries)) 2)
                     "가나다라마바사아자차카타파하가나다라마…")))))

(ert-deftest boxoffice-test-a-title-with-a-newline-keeps-its-row ()
  "A title holding a newline is drawn on its row, as the control picture ␊.
So are a carriage return, a tab and an escape, and a C1 control
(U+009B, a terminal's CSI), a bidi override (U+202E) and a bidi
isolate (U+2066) as �: the worker's answers are rewritten on their
way in, 드림's title given them, as KOBIS could send them.  Its row
stays one line, its columns in line, and the detail's title one line
above the English one."
  (boxoffice-test--with boxoffice-test--offline
    (let ((handle (symbol-function 'boxoffice--handle-line))
          (shown "드림␊(재개봉)␍␉␛끝�[2J�역순�"))
      (cl-letf (((symbol-function 'boxoffice--handle-line)
                 (lambda (process line)
                   (funcall handle process
                            (replace-regexp-in-string
                             "\"title\":\"드림\""
                             (concat "\"title\":\"드림\\n(재개봉)\\r\\t\\u001b끝"
                                     "\\u009b[2J\\u202e역순\\u2066\"")
                             line t t)))))
        (let ((list (boxoffice-daily "2023-04-26")))
          (boxoffice-test--wait-drawn list)
          (with-current-buffer list
            (should (eq boxoffice--state 'drawn))
            (should (equal (cl-subseq (car (boxoffice-test--rows)) 0 3)
                           (list "1" "신작" shown)))
            ;; The pictures and the � take a column each.
            (should (= (string-width shown) 28))
            ;; Every line but the columns' header is a row, and the
            ;; figures after the title start where every row's do.
            (should (= (count-lines (point-min) (point-max)) 11))
            (let ((columns (boxoffice-test--audience-columns)))
              (should (= (length columns) 10))
              (should (= (length (delete-dups columns)) 1)))
            (goto-char (point-min))
            (while (not (tabulated-list-get-id))
              (forward-line 1))
            (call-interactively (key-binding (kbd "RET"))))
          (let ((movie (get-buffer "*boxoffice movie 20198482*")))
            (should movie)
            (boxoffice-test--wait "the poster line"
                                  (lambda ()
                                    (buffer-local-value 'boxoffice--poster
                                                        movie)))
            (with-current-buffer movie
              (should (string-prefix-p (concat shown "\nDream\n")
                                       (buffer-string))))))))))

(ert-deftest boxoffice-test-c1-and-bidi-controls-become-replacement-characters ()
  "A C1 control, a bidi one and U+2028/U+2029 from the worker are drawn as �.
Each is one column, in the place of the character it stands for; the
characters beside their ranges stay.  The header line shows it too;
an error the worker says with them shows it in the buffer and the echo
area, and the worker's stderr in the log."
  (dolist (code '(#x80 #x85 #x9b #x9f #x2028 #x2029 #x202a #x202b #x202c #x202d #x202e
                       #x2066 #x2067 #x2068 #x2069))
    (let ((shown (boxoffice--one-line (string ?a code ?b))))
      (should (equal shown "a�b"))
      (should (= (string-width shown) 3))))
  (dolist (code '(#x7e #xa0 #xe9 #x2027 #x202f #x2065 #x206a #x2400 #xfffd #xb4dc #x1f3ac))
    (should (equal (boxoffice--one-line (string ?a code ?b)) (string ?a code ?b))))
  (let ((case-fold-search t))
    (should (equal (boxoffice--one-line "ABC abc") "ABC abc")))
  (should (equal (boxoffice--lines "a\u202eb\nc\u009bd\te") "a�b\nc�d␉e"))
  (should (equal (boxoffice--header "50% \u2066x") "50%% �x"))
  (boxoffice-test--with boxoffice-test--offline
    (let ((handle (symbol-function 'boxoffice--handle-line)))
      (cl-letf (((symbol-function 'boxoffice--handle-line)
                 (lambda (process line)
                   (funcall handle process
                            (replace-regexp-in-string
                             "\"message\":\"" "\"message\":\"\\u202e\\u009b" line t t)))))
        (let ((buffer (boxoffice-movie "99999999")))
          (boxoffice-test--wait-drawn buffer)
          (with-current-buffer buffer
            (should (eq boxoffice--state 'failed))
            (should (string-prefix-p "boxoffice: ��offline mode: no recorded response"
                                     (buffer-string))))
          (should (boxoffice-test--said "\\`boxoffice: ��offline mode: no recorded response"))
          (should-not (boxoffice-test--said "[\u009b\u202e]"))
          ;; The worker's stderr reaches the log through the same stand-ins.
          (let ((pipe (cl-find #'boxoffice--stderr (process-list) :key #'process-filter)))
            (should pipe)
            (funcall (process-filter pipe) pipe "a line\u202e with \u009b[2J in it\n"))
          (with-current-buffer boxoffice--log-buffer
            (should (string-match-p "^a line� with �\\[2J in it$" (buffer-string)))
            (should-not (string-match-p "[\u009b\u202e]" (buffer-string)))))))))

;;;; Column names apart, rows under them

(defun boxoffice-test--shown ()
  "The current line as shown: (COLUMN CHAR NAME) for each character.
A (space :align-to N) display property is honoured as redisplay
does; NAME is the character's `tabulated-list-column-name'."
  (let ((position (line-beginning-position))
        (end (line-end-position))
        (column 0)
        shown)
    (while (< position end)
      (let ((display (get-text-property position 'display)))
        (if (eq (car-safe display) 'space)
            (setq column (max column (plist-get (cdr display) :align-to))
                  position (next-single-property-change position 'display
                                                        nil end))
          (let ((char (char-after position)))
            (unless (eq char ?\s)
              (push (list column char
                          (get-text-property position 'tabulated-list-column-name))
                    shown))
            (setq column (+ column (char-width char))
                  position (1+ position))))))
    (nreverse shown)))

(defun boxoffice-test--shown-text (shown)
  "SHOWN, from `boxoffice-test--shown', as the text on the screen."
  (let ((text ""))
    (pcase-dolist (`(,column ,char ,_) shown)
      (setq text (concat text (make-string (max 0 (- column (string-width text))) ?\s)
                         (string char))))
    text))

(defun boxoffice-test--span (shown name)
  "Where the characters of column NAME are in SHOWN: (FIRST . AFTER-LAST)."
  (let ((mine (cl-remove-if-not (lambda (cell) (equal (nth 2 cell) name)) shown)))
    (and mine
         (cons (caar mine)
               (let ((cell (car (last mine))))
                 (+ (car cell) (char-width (cadr cell))))))))

(defun boxoffice-test--headings-apart-and-aligned ()
  "Check the current list's column names under every sort, rows under them."
  (let ((names (mapcar #'car tabulated-list-format)))
    ;; Unsorted: each name where its cells are, right-aligned or not.
    (setq tabulated-list-sort-key nil)
    (tabulated-list-init-header)
    (tabulated-list-print)
    (goto-char (point-min))
    (let ((heading (boxoffice-test--shown)))
      (forward-line 1)
      (while (not (eobp))
        (let ((row (boxoffice-test--shown)))
          (cl-loop for column across tabulated-list-format
                   for name = (car column)
                   for cell = (boxoffice-test--span row name)
                   for label = (boxoffice-test--span heading name)
                   when cell
                   do (if (plist-get (nthcdr 3 column) :right-align)
                          (should (equal (list name (cdr label)) (list name (cdr cell))))
                        (should (equal (list name (car label)) (list name (car cell)))))))
        (forward-line 1)))
    ;; Sorted by each column in turn, either way: the names stay apart.
    (dolist (column (append tabulated-list-format nil))
      (when (nth 2 column)
        (dolist (flip '(nil t))
          (setq tabulated-list-sort-key (cons (car column) flip))
          (tabulated-list-init-header)
          (tabulated-list-print)
          (goto-char (point-min))
          ;; Emacs 27 leaves the arrow out where it does not fit.
          (let ((text (replace-regexp-in-string
                       "[▲▼]" "^" (boxoffice-test--shown-text
                                    (boxoffice-test--shown)))))
            (should (equal (split-string text " +" t)
                           (split-string
                            (mapconcat (lambda (name)
                                         (if (and (equal name (car column))
                                                  (string-match-p "\\^" text))
                                             (concat name " ^")
                                           name))
                                       names " ")
                            " +" t)))))))))

(ert-deftest boxoffice-test-headings-apart ()
  "The sort arrow never glues two column names; rows stay under their names."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2023-04-26")))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (boxoffice-test--headings-apart-and-aligned)
        (setq tabulated-list-sort-key '("Rank" . t))
        (tabulated-list-init-header)
        (tabulated-list-print)
        (goto-char (point-min))
        (should (string-match-p
                 "\\`Rank\\( [▲▼]\\)? +Chg +Title +Audience +Total +Share\\'"
                 (boxoffice-test--shown-text (boxoffice-test--shown))))))))

;;;; j. Never blocking

(ert-deftest boxoffice-test-no-blocking ()
  "A command returns at once; timers keep running while the answer is due."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--upstream "/__hold?after=0")
    (let* ((ticks 0)
           (timer (run-with-timer 0.01 0.01 (lambda () (setq ticks (1+ ticks))))))
      (unwind-protect
          (let* ((before (progn (boxoffice--worker) (boxoffice-test--kobis-calls)))
                 (buffer (boxoffice-daily "2023-02-02")))
            ;; The command returned with its answer still held upstream: it only wrote a line to the worker.
            (should (eq (buffer-local-value 'boxoffice--state buffer) 'waiting))
            (setq ticks 0)
            (boxoffice-test--wait "five timer ticks" (lambda () (>= ticks 5)))
            (boxoffice-test--wait "the worker's KOBIS call"
                                  (lambda () (> (boxoffice-test--kobis-calls) before)))
            (should (eq (buffer-local-value 'boxoffice--state buffer) 'waiting))
            (boxoffice-test--upstream "/__release")
            (boxoffice-test--wait-drawn buffer)
            (should (eq (buffer-local-value 'boxoffice--state buffer) 'drawn)))
        (cancel-timer timer)
        (boxoffice-test--upstream "/__release")))))

;;;; The other commands

(defun boxoffice-test--progress-only ()
  "Check that the messages were progress only, the last one cleared."
  (let ((said (reverse boxoffice-test--messages)))
    (should (member "boxoffice: 1/20" said))
    (should (member "boxoffice: 20/20" said))
    (should-not (cl-remove-if (lambda (text)
                                (or (eq text :cleared)
                                    (string-match-p "\\`boxoffice: [0-9]+/20\\'"
                                                    text)))
                              said))
    (should (eq (car (last said)) :cleared))))

(ert-deftest boxoffice-test-progress ()
  "With details the echo area counts the parts fetched, and is cleared after."
  (boxoffice-test--with boxoffice-test--offline
    (let ((buffer (boxoffice-daily "2023-04-26" t)))
      (boxoffice-test--wait-drawn buffer)
      (should (eq (buffer-local-value 'boxoffice--state buffer) 'drawn))
      (boxoffice-test--progress-only))))

(ert-deftest boxoffice-test-weekly-latest-with-details ()
  "C-u M-x boxoffice-weekly without a date: the latest weekend, with progress."
  (boxoffice-test--with boxoffice-test--offline
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) ""))
              ((symbol-function 'completing-read) (lambda (&rest _) "weekend")))
      (let ((current-prefix-arg '(4)))
        (call-interactively #'boxoffice-weekly)))
    (let ((buffer (get-buffer "*boxoffice weekly weekend latest*")))
      (should buffer)
      (should-not (get-buffer "*boxoffice weekly weekend yesterday*"))
      (boxoffice-test--wait-drawn buffer)
      (with-current-buffer buffer
        (should (eq boxoffice--state 'drawn))
        (should (string-match-p "\\`주말 박스오피스 · " header-line-format)))
      (boxoffice-test--progress-only))
    (should (equal (buffer-name (boxoffice-weekly)) "*boxoffice weekly weekend latest*"))
    (should (equal (buffer-name (boxoffice-weekly nil "week"))
                   "*boxoffice weekly week latest*"))))

(ert-deftest boxoffice-test-weekly-search-status ()
  "The weekly list, a search and the status are drawn offline."
  (boxoffice-test--with boxoffice-test--offline
    (let ((weekly (boxoffice-weekly "2023-04-23" "week"))
          (search (boxoffice-search "범죄와의 전쟁"))
          (status (boxoffice-status)))
      (should (equal (buffer-name weekly) "*boxoffice weekly week 2023-04-23*"))
      (mapc #'boxoffice-test--wait-drawn (list weekly search status))
      (with-current-buffer weekly
        (should (string-match-p "\\`주간 박스오피스 · 2023-04-17 – 2023-04-23 · fixture"
                                header-line-format))
        (should (equal (cl-third (car (boxoffice-test--rows))) "존 윅 4")))
      (with-current-buffer search
        (should (equal header-line-format "영화 검색 · 범죄와의 전쟁 · 5 found, page 1"))
        (should (equal (mapcar #'car tabulated-list-format)
                       '("Code" "Title" "Year" "Genres" "Directors" "English title")))
        (should (equal (mapcar #'car tabulated-list-entries)
                       '("2023C168" "20113557" "20216937" "20137864" "19910128")))
        (should (string-match-p "^19910128 +범죄와의 전쟁 +1988 +액션, 범죄 +데니스 호퍼 +Colors$"
                                (buffer-string)))
        (boxoffice-test--headings-apart-and-aligned))
      (with-current-buffer status
        (should (eq major-mode 'boxoffice-status-mode))
        (should (string-match-p
                 (concat
                  "\\`boxoffice-worker 0\\.2\\.0 ([0-9a-f]+) · offline\n"
                  (format "process        pid %d, up [0-9]+\\.[0-9] s\n"
                          (process-id boxoffice--process))
                  "KOBIS quota    none offline (set KOBIS_API_KEY to go live)\n"
                  "cache          none\n"
                  "requests       [0-9]+ answered, 0 failed, 0 cancelled, [0-9]+ in flight\n"
                  "binary         " (regexp-quote (getenv "BOXOFFICE_WORKER")) "\n\\'")
                 (buffer-string)))
        (should-not (buffer-modified-p))))))

(ert-deftest boxoffice-test-status-lines ()
  "The status screen's lines, a live quota, a cache and a store, never wrapped."
  (with-temp-buffer
    (boxoffice-status-mode)
    (let ((boxoffice--process nil))
      (boxoffice--status-answered
       '((name . "boxoffice-worker") (version . "0.2.0") (commit . "f7bbe8cb1520")
         (mode . "live") (pid . 4242) (uptimeSeconds . 3.21)
         (requests (succeeded . 5) (failed . 1) (cancelled . 2) (inFlight . 3))
         (quota (day . "2026-11-21") (limit . 100) (used . 1) (remaining . 99)
                (resetsAt . "2026-11-21T15:00:00Z"))
         (cache (enabled . t) (path . "/root/.cache/boxoffice-worker")
                (hits . 3) (misses . 1))
         (store (kind . "sqlite")
                (location . "/root/.cache/boxoffice-worker/boxoffice.sqlite")
                (connected . t)))
       nil))
    (should (equal (buffer-string)
                   (concat
                    "boxoffice-worker 0.2.0 (f7bbe8cb1520) · live\n"
                    "process        pid 4242, up 3.2 s\n"
                    "KOBIS quota    1 of 100 used, 99 left; resets 2026-11-21T15:00:00Z\n"
                    "cache          /root/.cache/boxoffice-worker, 3 hits, 1 misses\n"
                    "store          sqlite /root/.cache/boxoffice-worker/boxoffice.sqlite (connected)\n"
                    "requests       5 answered, 1 failed, 2 cancelled, 3 in flight\n")))
    (should-not (buffer-modified-p))))

(ert-deftest boxoffice-test-status-live ()
  "Live, the status counts the KOBIS quota used and the cache."
  (boxoffice-test--with (boxoffice-test--live)
    (boxoffice-test--wait-drawn (boxoffice-daily "2023-02-06"))
    (let ((status (boxoffice-status)))
      (boxoffice-test--wait-drawn status)
      (with-current-buffer status
        (should (string-match-p "\\`boxoffice-worker 0\\.2\\.0 ([0-9a-f]+) · live\n"
                                (buffer-string)))
        (should (string-match-p
                 "^KOBIS quota    [1-9][0-9]* of [0-9]+ used, [0-9]+ left; resets [-0-9T:]+Z$"
                 (buffer-string)))
        (should (string-match-p
                 (concat "\\`" (regexp-quote (getenv "BOXOFFICE_CACHE_DIR"))
                         ", [0-9]+ hits, [1-9][0-9]* misses\\'")
                 (boxoffice-test--field "cache")))
        ;; Live, the cache directory holds the worker's sqlite store.
        ;; (Where the line broke at a space the field joins with none.)
        (should (string-match-p "\\`sqlite /.*\\.sqlite ?(connected)\\'"
                                (boxoffice-test--field "store")))))))

(ert-deftest boxoffice-test-search-and-movie-refused ()
  "A blank title or a code that is not letters and digits: no call, no buffer."
  (boxoffice-test--with boxoffice-test--offline
    (let ((before boxoffice--last-id))
      (dolist (title '("" "   " nil))
        (should (equal (should-error (boxoffice-search title) :type 'user-error)
                       '(user-error "Give a title to search for, such as 드림"))))
      (dolist (code '("" " " nil))
        (should (equal (should-error (boxoffice-movie code) :type 'user-error)
                       '(user-error "Give a KOBIS movie code, such as 20124079"))))
      (dolist (code '("abc!" "2012 4079" "20124079/" "../x" "드림"))
        (should (equal (should-error (boxoffice-movie code) :type 'user-error)
                       `(user-error ,(format "\"%s\" is not a KOBIS movie code: \
use its letters and digits, such as 20124079" code)))))
      (should-not boxoffice--process)
      (should (= boxoffice--last-id before)))
    (should-not (cl-find-if (lambda (buffer)
                              (string-prefix-p "*boxoffice " (buffer-name buffer)))
                            (buffer-list)))
    ;; Letters and digits are a code, as 2023C168 is.
    (let ((buffer (boxoffice-movie "2023C168")))
      (should (equal (buffer-name buffer) "*boxoffice movie 2023C168*"))
      (boxoffice-test--wait-drawn buffer))))

(ert-deftest boxoffice-test-refresh ()
  "g asks again with refresh: true, which goes past the cache."
  (boxoffice-test--with (boxoffice-test--live)
    (let ((buffer (boxoffice-daily "2023-02-05")))
      (boxoffice-test--wait-drawn buffer)
      (let ((before (boxoffice-test--kobis-calls)))
        (with-current-buffer buffer
          (revert-buffer)
          (should (eq boxoffice--state 'waiting)))
        (boxoffice-test--wait-drawn buffer)
        (should (eq (buffer-local-value 'boxoffice--state buffer) 'drawn))
        (should (= (boxoffice-test--kobis-calls) (1+ before)))))))

(provide 'boxoffice-tests)
;;; boxoffice-tests.el ends here
