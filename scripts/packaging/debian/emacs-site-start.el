;;; 50boxoffice-worker.el --- boxoffice-worker's Emacs package, ready at start  -*- lexical-binding: t; -*-
;; Installed by the boxoffice-worker .deb: the package's folder on the load path and its commands autoloaded, so
;; M-x boxoffice-daily works with no configuration. Removing the package removes the folder; the test keeps a
;; leftover configuration file from breaking Emacs's start.
(let ((directory "/usr/share/emacs/site-lisp/boxoffice-worker"))
  (when (file-directory-p directory)
    (add-to-list 'load-path directory)
    (dolist (command '(boxoffice-daily boxoffice-weekly boxoffice-movie boxoffice-search boxoffice-status))
      (autoload command "boxoffice" nil t))))
