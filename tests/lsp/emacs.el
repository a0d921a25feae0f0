;; Emacs and eglot (Debian's emacs-nox and elpa-eglot) as the language
;; server's client: tests/lsp/emacs-client runs it in batch mode. It opens a
;; ledger with a planted error, connects eglot to `ledgergate lsp` and waits
;; for flymake to hold the diagnostic, which it prints.
(add-to-list 'load-path (car (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/eglot-*")))
(package-initialize)
(require 'eglot)
(require 'flymake)
(add-to-list 'eglot-server-programs `(text-mode . (,(getenv "LG") "lsp")))
(find-file (expand-file-name "projects/example.md" (getenv "ROOT")))
(text-mode)
(apply #'eglot (eglot--guess-contact))
(let ((deadline (+ (float-time) 60)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.1)))
(dolist (d (flymake-diagnostics))
  (princ (format "diagnostic line %d: %s\n" (line-number-at-pos (flymake-diagnostic-beg d))
                 (flymake-diagnostic-text d))))
(kill-emacs (if (flymake-diagnostics) 0 1))
