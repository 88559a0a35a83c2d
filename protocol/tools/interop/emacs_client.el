;;; emacs_client.el --- interop test: Emacs jsonrpc.el drives diffable  -*- coding: utf-8; lexical-binding: t -*-

;; DIFFABLE_BIN=.build/debug/diffable emacs --batch -Q -l protocol/tools/interop/emacs_client.el
;;
;; The built-in `jsonrpc' library (Emacs 27+, what Eglot is built on), set up
;; the way Eglot does it: `make-process' with a pipe, `utf-8-emacs-unix'
;; coding and a "*NAME stderr*" buffer, wrapped in a
;; `jsonrpc-process-connection'.  It sends number ids from 1, a
;; Content-Length header only, and `"params":null' for
;; `(jsonrpc-request conn :shutdown nil)' and `(jsonrpc-notify conn :exit nil)'.
;; Session: initialize -> apply -> search -> two failing requests -> shutdown
;; -> exit.  Passes when every answer has the expected values, nothing else
;; arrives, the daemon writes nothing to stderr and exits with 0 within 5 s of
;; `exit'.  `(kill-emacs 0)' on success; else prints `interop-fail: REASON' on
;; stdout and `(kill-emacs 1)'.

(require 'cl-lib)

(defconst interop-step-timeout 5)

(define-error 'interop-fail "interop failure")
(defun interop-fail (fmt &rest args)
  (signal 'interop-fail (list (apply #'format fmt args))))
(defmacro interop-check (cond fmt &rest args)
  `(unless ,cond (interop-fail ,fmt ,@args)))

(defun interop-norm (v)
  "V with every object's members sorted, so that `equal' ignores member order."
  (cond ((vectorp v) (apply #'vector (mapcar #'interop-norm v)))
        ((and (consp v) (keywordp (car v)))
         (let (pairs)
           (while v (push (cons (symbol-name (pop v)) (interop-norm (pop v))) pairs))
           (sort pairs (lambda (a b) (string< (car a) (car b))))))
        (t v)))
(defun interop-equal (a b) (equal (interop-norm a) (interop-norm b)))

(defconst interop-people
  [(:id "staff" :header "Staff"
    :items [(:id "grace" :content (:text "Grace Hopper"))
            (:id "alan" :content (:text "Alan Turing"))
            (:id "ingrid" :content (:text "Ingrid Daubechies"))
            (:id "renee" :content (:text "Renée Grégoire"))])
   (:id "guests" :header "Guests"
    :items [(:id "greg" :content (:text "Greg Egan"))
            (:id "linus" :content (:text "Linus Torvalds"))])])

(defvar interop-received nil "Every message the connection received, newest first.")
(defvar interop-unexpected nil "Server notifications and requests.")
(defvar interop-conn nil)

(defun interop-record (_conn message) (push message interop-received))

(defun interop-daemon-state ()
  (let ((proc (jsonrpc--process interop-conn)))
    (format "daemon %s %s" (process-status proc) (process-exit-status proc))))

(defun interop-request (method params)
  (condition-case err
      (jsonrpc-request interop-conn method params :timeout interop-step-timeout)
    (jsonrpc-error
     (interop-fail "%s: unexpected error %s: %s" method
                   (alist-get 'jsonrpc-error-code (cdr err))
                   (alist-get 'jsonrpc-error-message (cdr err))))
    (error                              ; e.g. "Process diffable not running"
     (interop-fail "%s: %s (%s)" method (error-message-string err) (interop-daemon-state)))))

(cl-defun interop-request-error (method params)
  "The (CODE MESSAGE DATA) of the error METHOD must answer."
  (let ((result
         (condition-case err
             (jsonrpc-request interop-conn method params :timeout interop-step-timeout)
           (jsonrpc-error
            (let ((code (alist-get 'jsonrpc-error-code (cdr err)))
                  (message (alist-get 'jsonrpc-error-message (cdr err))))
              (interop-check code "%s: %s" method message)
              (cl-return-from interop-request-error
                (list code message (alist-get 'jsonrpc-error-data (cdr err))))))
           (error
            (interop-fail "%s: %s (%s)" method (error-message-string err) (interop-daemon-state))))))
    (interop-fail "%s: expected an error, got result %S" method result)))

(defun interop-stderr ()
  "What the daemon wrote to stderr, less the note Emacs adds when the pipe closes."
  (let ((buf (and interop-conn (jsonrpc-stderr-buffer interop-conn))))
    (if (not (buffer-live-p buf)) ""
      (replace-regexp-in-string "\n?Process [^\n]* stderr finished\n\\'" ""
                                (with-current-buffer buf (buffer-string))))))

(defun interop-session ()
  (let ((bin (or (getenv "DIFFABLE_BIN") "")))
    (interop-check (and (not (equal bin "")) (file-executable-p bin))
                   "DIFFABLE_BIN %S is not an executable" bin)
    (interop-check (require 'jsonrpc nil t)
                   "jsonrpc.el is missing (Emacs >= 27 needed); run protocol/tools/install-test-tools")
    (advice-add 'jsonrpc-connection-receive :before #'interop-record)
    (setq interop-conn
          (make-instance
           'jsonrpc-process-connection
           :name "diffable"
           :process (lambda ()
                      (make-process
                       :name "diffable" :command (list bin "--stdio")
                       :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                       :stderr (get-buffer-create "*diffable stderr*")))
           :notification-dispatcher
           (lambda (_conn method params)
             (push (format "notification %s %S" method params) interop-unexpected))
           :request-dispatcher
           (lambda (_conn method params)
             (push (format "server request %s %S" method params) interop-unexpected)
             (jsonrpc-error :code -32601 :message "no requests expected"))))
    (let* ((proc (jsonrpc--process interop-conn))
           (init (interop-request :initialize
                                  (list :processId (emacs-pid)
                                        :initializationOptions '(:form "batch"))))
           (caps (plist-get init :capabilities)))
      (interop-check (equal (plist-get (plist-get init :serverInfo) :name) "diffable")
                     "initialize: serverInfo %S" (plist-get init :serverInfo))
      (interop-check (and (cl-find "search" (plist-get caps :methods) :test #'equal)
                          (cl-find "shutdown" (plist-get caps :methods) :test #'equal))
                     "initialize: methods %S" (plist-get caps :methods))
      (interop-check (cl-find "content-length" (plist-get caps :framings) :test #'equal)
                     "initialize: framings %S" (plist-get caps :framings))

      (let ((applied (interop-request :apply (list :source "people" :sections interop-people))))
        (interop-check (and (equal (plist-get applied :source) "people")
                            (eql (plist-get applied :version) 1))
                       "apply: source/version %S/%S"
                       (plist-get applied :source) (plist-get applied :version))
        (interop-check (interop-equal (plist-get applied :batch)
                                      `(:sections (:insert [(:at 0 :sections ,interop-people)])))
                       "apply: batch %S" (plist-get applied :batch)))

      (let ((found (interop-request :search '(:source "people" :query "gr" :sections ["staff"]))))
        (interop-check (eql (plist-get found :version) 2) "search: version %S" (plist-get found :version))
        (interop-check (interop-equal (plist-get found :search) '(:query "gr" :matches 3 :shown 3))
                       "search: %S" (plist-get found :search))
        (interop-check (interop-equal (plist-get found :batch)
                                      '(:items (:delete [(:section 0 :ranges [[1 1]])])))
                       "search: batch %S" (plist-get found :batch))
        (interop-check (interop-equal (plist-get found :highlights)
                                      [(:id "grace" :path [0 0] :ranges [[0 2]])
                                       (:id "ingrid" :path [0 1] :ranges [[2 2]])
                                       (:id "renee" :path [0 2] :ranges [[6 2]])])
                       "search: highlights %S" (plist-get found :highlights)))

      (pcase-let ((`(,code ,message ,data)
                   (interop-request-error :apply '(:source "people"
                                                   :sections [(:id "staff" :items ["grace"])
                                                              (:id "guests" :items ["grace"])]))))
        (interop-check (eql code -32602) "apply with a duplicate id: code %s (want -32602): %s" code message)
        (interop-check (equal (plist-get (aref (plist-get data :problems) 0) :id) "grace")
                       "apply with a duplicate id: data %S" data))

      (pcase-let ((`(,code ,message ,data)
                   (interop-request-error :search '(:source "nobody" :query "gr"))))
        (interop-check (eql code 1001) "search of an unknown source: code %s (want 1001): %s" code message)
        (interop-check (interop-equal data '(:source "nobody"))
                       "search of an unknown source: data %S" data))

      (let ((down (interop-request :shutdown nil)))  ; sends "params":null
        (interop-check (null down) "shutdown: result %S (want null)" down))

      (jsonrpc-notify interop-conn :exit nil)        ; "params":null as well
      (let ((deadline (+ (float-time) interop-step-timeout)))
        (while (and (process-live-p proc) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (interop-check (not (process-live-p proc))
                     "daemon still running %s s after exit" interop-step-timeout)
      (accept-process-output nil 0.1)  ; the sentinel, the rest of stdout and stderr
      (interop-check (and (eq (process-status proc) 'exit) (eql (process-exit-status proc) 0))
                     "daemon exited with %s %s after shutdown + exit (want exit 0)"
                     (process-status proc) (process-exit-status proc))
      (interop-check (= (length interop-received) 6)
                     "received %d messages, want 6 answers; ids %S, last %S"
                     (length interop-received)
                     (mapcar (lambda (m) (plist-get m :id)) (reverse interop-received))
                     (car interop-received))
      (interop-check (null interop-unexpected) "unexpected: %S" (reverse interop-unexpected))
      (interop-check (equal (interop-stderr) "") "daemon wrote to stderr: %S" (interop-stderr)))))

(condition-case err
    (progn
      (interop-session)
      (princ "ok\n")
      (kill-emacs 0))
  (error
   (let* ((msg (if (eq (car err) 'interop-fail) (cadr err)
                 (format "error in the test: %S" err)))
          (stderr (ignore-errors (accept-process-output nil 0.1) (interop-stderr))))
     (when (and (stringp stderr) (not (equal stderr ""))
                (not (string-prefix-p "daemon wrote" msg)))
       (setq msg (format "%s (daemon stderr: %S)" msg (truncate-string-to-width stderr 200 nil nil "…"))))
     (princ (format "interop-fail: %s\n" (replace-regexp-in-string "\n" "\\\\n" msg)))
     (let ((proc (and interop-conn (jsonrpc--process interop-conn))))
       (when (process-live-p proc) (delete-process proc)))
     (kill-emacs 1))))

;;; emacs_client.el ends here
