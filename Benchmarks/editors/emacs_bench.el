;;; emacs_bench.el --- How long boxoffice.el takes to draw a day  -*- lexical-binding: t; -*-

;;; Commentary:

;; From the repository's root, with the built worker:
;;
;;   BOXOFFICE_WORKER=.build/debug/boxoffice-worker \
;;     emacs --batch -Q -L editors/emacs -l Benchmarks/editors/emacs_bench.el
;;
;; Offline (the recorded 2023-04-26), so nothing but the worker and Emacs
;; is measured.  Prints, in one run:
;;   - warm: from (boxoffice-daily "2023-04-26") to its buffer drawn, the
;;     worker running and the day in its memory (median of 20);
;;   - first use: the same with a worker started for it (median of 5, a
;;     fresh worker each);
;;   - baseline: a `ping' round trip through the same worker (median of
;;     20), what the warm figure costs beyond Emacs's own drawing.
;; BOXOFFICE_BENCH_WARM and BOXOFFICE_BENCH_COLD change the counts.

;;; Code:

(require 'cl-lib)
(require 'boxoffice)

(defconst emacs-bench--date "2023-04-26"
  "The day drawn: a recorded one, so the worker answers offline.")

(defun emacs-bench--median (samples)
  "The median of SAMPLES, a list of numbers."
  (let* ((sorted (sort (copy-sequence samples) #'<))
         (count (length sorted)))
    (if (cl-oddp count)
        (nth (/ count 2) sorted)
      (/ (+ (nth (1- (/ count 2)) sorted) (nth (/ count 2) sorted)) 2.0))))

(defun emacs-bench--until (predicate)
  "Let the worker's answers in until PREDICATE holds (30 s at most).
It waits on the worker itself: waiting on any process (nil), Emacs
28 returns some 10 ms after the output came, which would be measured."
  (let ((deadline (+ (float-time) 30)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (error "The worker did not answer within 30 s"))
      (accept-process-output boxoffice--process 0.5))))

(defun emacs-bench--daily ()
  "Milliseconds from `boxoffice-daily' to its buffer drawn."
  (let* ((started (float-time))
         (buffer (boxoffice-daily emacs-bench--date)))
    (emacs-bench--until
     (lambda ()
       (not (eq (buffer-local-value 'boxoffice--state buffer) 'waiting))))
    (unless (eq (buffer-local-value 'boxoffice--state buffer) 'drawn)
      (error "Not drawn: %s" (with-current-buffer buffer (buffer-string))))
    (* 1000 (- (float-time) started))))

(defun emacs-bench--ping ()
  "Milliseconds of a ping's round trip through the running worker."
  (let ((started (float-time))
        answered)
    (boxoffice--request "ping" nil (lambda (_result _error) (setq answered t)))
    (emacs-bench--until (lambda () answered))
    (* 1000 (- (float-time) started))))

(defun emacs-bench--count (variable default)
  "The count in environment VARIABLE, else DEFAULT."
  (let ((value (getenv variable)))
    (if (and value (string-match-p "\\`[1-9][0-9]*\\'" value))
        (string-to-number value)
      default)))

(defun emacs-bench--report (what samples)
  "Print WHAT's median of SAMPLES in milliseconds."
  (princ (format "emacs: %-58s median %7.2f ms of %d (min %.2f, max %.2f)\n"
                 what (emacs-bench--median samples) (length samples)
                 (apply #'min samples) (apply #'max samples))))

(defun emacs-bench-run ()
  "Measure and print the three figures."
  (let ((boxoffice-worker-environment
         '("KOBIS_API_KEY=" "KAKAO_REST_API_KEY=" "BOXOFFICE_TODAY=2026-11-21"
           "BOXOFFICE_LOG_LEVEL=warning"))
        (warm-count (emacs-bench--count "BOXOFFICE_BENCH_WARM" 20))
        (cold-count (emacs-bench--count "BOXOFFICE_BENCH_COLD" 5))
        cold warm ping)
    (princ (format "emacs: %s, worker %s\n" emacs-version (boxoffice--binary)))
    (dotimes (_ cold-count)
      (boxoffice-stop-worker)
      (push (emacs-bench--daily) cold))
    ;; The last cold run left the worker running with the day in memory.
    (emacs-bench--daily)
    (dotimes (_ warm-count)
      (push (emacs-bench--daily) warm))
    (dotimes (_ warm-count)
      (push (emacs-bench--ping) ping))
    (boxoffice-stop-worker)
    (emacs-bench--report (format "daily %s drawn, worker running, day cached"
                                 emacs-bench--date)
                         warm)
    (emacs-bench--report (format "daily %s drawn, first use (worker started)"
                                 emacs-bench--date)
                         cold)
    (emacs-bench--report "ping round trip (baseline)" ping)))

(emacs-bench-run)

;;; emacs_bench.el ends here
